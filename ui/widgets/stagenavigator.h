#pragma once
// The stage navigator: every step in the order of the math, the current one highlighted,
// Previous/Next, a head selector for per-head stages, and auto-play with adjustable speed.
// For a Transformer the list is grouped by source, encoder layers, target, decoder layers and
// output, and a layer and a block selector sit next to the head selector.

#include "session/stages.h"

#include <QWidget>

#include <vector>

class QComboBox;
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
    /// A Transformer's layer (1-based entries) and block selectors; hidden for one attention block.
    QComboBox* layerBox() const { return m_layer; }
    QComboBox* blockBox() const { return m_block; }
    QPushButton* playButton() const { return m_play; }
    QSlider* speedSlider() const { return m_speed; }
    bool isPlaying() const;
    /// Starts or stops auto-play (one step every speed-slider seconds, stopping at the end).
    void setPlaying(bool playing);

protected:
    /// A language change writes the list, the labels and the buttons again.
    void changeEvent(QEvent* event) override;

private:
    void syncStep();
    void syncHeads();
    /// Rebuilds the list when the steps changed (another model, layers, or back to one block).
    void rebuildList();
    /// Jumps to the chosen layer and block, to the same stage when it exists there.
    void goToLayerBlock();
    void advance();
    void retranslate();

    Session* m_session;
    QListWidget* m_list;
    QPushButton* m_previous;
    QPushButton* m_next;
    QSpinBox* m_head;
    QComboBox* m_layer;
    QComboBox* m_block;
    QLabel* m_layerLabel;
    QLabel* m_blockLabel;
    std::vector<Step> m_shown; ///< the steps the list shows
    QLabel* m_headLabel;
    QPushButton* m_play;
    QSlider* m_speed;
    QLabel* m_speedLabel;
    QTimer* m_timer;
};

} // namespace attnlab
