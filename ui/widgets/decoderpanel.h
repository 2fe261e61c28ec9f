#pragma once
// The decoder's input, for a Transformer: greedy generation (the model writes its own target,
// one token per step, and a stepper walks through the steps while the causal mask and the
// probabilities grow a row at a time) or teacher forcing (the class types the target). Hidden
// for one attention block. While the Session generates off the GUI thread, a progress bar says
// how far it is and Cancel stops it (the tokens written so far stay).

#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QTimer;

namespace attnlab {

class Session;

class DecoderPanel : public QWidget {
    Q_OBJECT
public:
    explicit DecoderPanel(Session* session, QWidget* parent = nullptr);

    QRadioButton* generateButton() const { return m_generate; }
    QRadioButton* forceButton() const { return m_force; }
    QLineEdit* targetEdit() const { return m_target; }
    QPushButton* previousButton() const { return m_previous; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* playButton() const { return m_play; }
    /// "Step 3 / 10", the generated tokens so far and the next one's probability.
    QLabel* stepLabel() const { return m_stepLabel; }
    QLabel* outputLabel() const { return m_output; }
    /// Shown while a generation runs: its steps done, of at most its limit.
    QProgressBar* progressBar() const { return m_progress; }
    /// Shown while a generation runs: stops it (Session::stopGeneration).
    QPushButton* cancelButton() const { return m_cancel; }
    /// Shows the panel (for an encoder–decoder) or hides it, and its fields, as the session is.
    void sync();

private:
    void setUpLayout();
    void connectControls();
    void showProgress(int done, int limit);
    void applyTarget();
    void retranslate();
    /// The progress bar's words as its width allows: "Generating: 12 of at most 1024 tokens", or
    /// "12 / 1024" where the row is narrow (a 1024-pixel projector keeps the window's width).
    void fitProgressFormat();
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

    Session* m_session;
    QLabel* m_title;
    QRadioButton* m_generate;
    QRadioButton* m_force;
    QLineEdit* m_target;
    QPushButton* m_previous;
    QPushButton* m_next;
    QPushButton* m_play;
    QLabel* m_stepLabel;
    QLabel* m_output;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTimer* m_debounce;
    QTimer* m_playTimer;
};

} // namespace attnlab
