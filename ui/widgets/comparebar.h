#pragma once
// Comparing two inputs (issue 10 §2): the switch (View ▸ Compare two inputs, Ctrl+D, and a button
// beside the sentence) and, while it is on, a bar above the views that says what B is: another
// sentence (prefilled with A's first and last words swapped: 狗咬了人 → 人咬了狗), or the same
// sentence with another positional encoding, score scaling, mask or seed.

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace attnlab {

class Session;
struct Comparison;

class CompareBar : public QWidget {
    Q_OBJECT
public:
    explicit CompareBar(Session* session, QWidget* parent = nullptr);

    /// Switches comparison on and off (checkable, Ctrl+D); the View menu lists it.
    QAction* toggleAction() const { return m_toggle; }
    /// The same switch as a button, for the row of the sentence box (made here, placed by the window).
    QToolButton* toggleButton() const { return m_button; }
    /// What B changes: another sentence, positional encoding, scaling, mask or seed.
    QComboBox* kindBox() const { return m_kind; }
    QLineEdit* sentenceEdit() const { return m_sentence; }
    /// Fills B's sentence with A's, its first and last words swapped.
    QPushButton* swapButton() const { return m_swap; }
    QComboBox* positionalBox() const { return m_positional; }
    QComboBox* scaleBox() const { return m_scale; }
    QComboBox* maskBox() const { return m_mask; }
    QSpinBox* seedBox() const { return m_seed; }

signals:
    /// Enter in B's sentence: the window gives the keys back to the views.
    void editingDone();

private:
    void connectControls();
    /// Shows the Session's comparison in the controls (without sending it back).
    void sync();
    /// B as the controls say; a new kind starts from the other value of A's setting.
    void apply();
    void applyKind(int index);
    void retranslate();
    void changeEvent(QEvent* event) override;

    Session* m_session;
    QAction* m_toggle;
    QToolButton* m_button;
    QLabel* m_label;
    QComboBox* m_kind;
    QStackedWidget* m_editors;
    QWidget* m_sentencePage;
    QLineEdit* m_sentence;
    QPushButton* m_swap;
    QComboBox* m_positional;
    QComboBox* m_scale;
    QComboBox* m_mask;
    QSpinBox* m_seed;
    QTimer* m_debounce;
};

} // namespace attnlab
