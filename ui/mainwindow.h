#pragma once
// The studio window: a sentence box and the attention weights of one head as a heatmap.

#include <QMainWindow>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace attnlab {

class HeatmapView;
class Session;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);

    QLineEdit* sentenceEdit() const { return m_sentence; }
    HeatmapView* heatmap() const { return m_heatmap; }
    QLabel* messageLabel() const { return m_message; }

private:
    void showTrace();
    void showError(const QString& message);
    void applyMask();

    Session* m_session;
    QLineEdit* m_sentence;
    QSpinBox* m_head;
    QComboBox* m_mask;
    QLabel* m_message;
    HeatmapView* m_heatmap;
    QTimer* m_debounce;
};

} // namespace attnlab
