#pragma once
// The predictions view's generation stepper for GPT-2 (session/generationstepper.h): greedy or
// sampling (temperature, top-k, top-p, seed: the command line's `generate` options, checked with
// a message when out of range), "Next token" (N), "Generate N" (G; with progress and Stop, the
// window stays responsive) and "Back" (Backspace). The keys are the panel's actions, which the
// view stack makes window-wide (SessionView::windowActions) and the shortcut sheet lists under
// their own group. Enter presses the focused button (Space is a stepping key).

#include "pretrained/generate.h"

#include <QWidget>

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace attnlab {

class GenerationStepper;
class Session;

class GenerationPanel : public QWidget {
    Q_OBJECT
public:
    GenerationPanel(Session* session, QWidget* parent = nullptr);

    /// The options the fields give, or nullopt with the reason (translated) when one is out of range.
    std::optional<SamplingOptions> options(QString* problem = nullptr) const;

    QComboBox* modeBox() const { return m_mode; }
    QLineEdit* temperatureEdit() const { return m_temperature; }
    QLineEdit* topKEdit() const { return m_topK; }
    QLineEdit* topPEdit() const { return m_topP; }
    QLineEdit* seedEdit() const { return m_seed; }
    QSpinBox* countBox() const { return m_count; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* generateButton() const { return m_generate; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* stopButton() const { return m_stop; }
    QProgressBar* progressBar() const { return m_progress; }
    /// What was generated, why generation stopped, or why a value was refused.
    QLabel* statusLabel() const { return m_status; }
    QAction* nextAction() const { return m_nextAction; }
    QAction* generateAction() const { return m_generateAction; }
    QAction* backAction() const { return m_backAction; }
    /// Next token, Generate N and Back.
    QList<QAction*> stepActions() const { return {m_nextAction, m_generateAction, m_backAction}; }

    /// Writes `count` tokens (Next token: 1); false, with the reason in the status line, when
    /// no step can be taken or an option is out of range (nothing else changes then).
    bool generate(int count);
    /// Removes the last generated token.
    bool back();

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildLayout();
    void connectControls();
    void retranslate();
    /// Enables what can be used now (the model, a run in progress, the mode).
    void updateState();
    /// The generated tokens, their probabilities and why generation stopped.
    void showGenerated();
    void showProblem(const QString& text);

    Session* m_session;
    GenerationStepper* m_stepper;
    const void* m_shownModel = nullptr; ///< the model the status line was written for
    QLabel* m_title;
    QComboBox* m_mode;
    QLabel* m_temperatureLabel;
    QLineEdit* m_temperature;
    QLabel* m_topKLabel;
    QLineEdit* m_topK;
    QLabel* m_topPLabel;
    QLineEdit* m_topP;
    QLabel* m_seedLabel;
    QLineEdit* m_seed;
    QPushButton* m_next;
    QPushButton* m_generate;
    QLabel* m_countLabel;
    QSpinBox* m_count;
    QPushButton* m_back;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_status;
    QAction* m_nextAction;
    QAction* m_generateAction;
    QAction* m_backAction;
};

} // namespace attnlab
