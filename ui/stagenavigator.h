#pragma once
// The stage navigator: every step in the order of the math, the current one highlighted,
// Previous/Next, a head selector for per-head stages, and auto-play with adjustable speed.

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace attnlab {

class Session;

class StageNavigator : public QWidget {
    Q_OBJECT
public:
    explicit StageNavigator(Session* session, QWidget* parent = nullptr);

    QListWidget* list() const { return m_list; }
    QSpinBox* headBox() const { return m_head; }
    QPushButton* playButton() const { return m_play; }
    QSlider* speedSlider() const { return m_speed; }
    bool isPlaying() const;
    /// Starts or stops auto-play (one step every speed-slider seconds, stopping at the end).
    void setPlaying(bool playing);

private:
    void syncStep();
    void syncHeads();
    void advance();
    void retranslate();

    Session* m_session;
    QListWidget* m_list;
    QPushButton* m_previous;
    QPushButton* m_next;
    QSpinBox* m_head;
    QLabel* m_headLabel;
    QPushButton* m_play;
    QSlider* m_speed;
    QLabel* m_speedLabel;
    QTimer* m_timer;
};

} // namespace attnlab
