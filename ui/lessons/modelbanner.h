#pragma once
// The lesson panel's banner for a lesson whose model is not in the Models folder: which model to
// download, from where, the files, the folder to put them in (LessonModels::bannerMarkdown), and
// its buttons: Download fetches a model of the hub into the Models folder (ModelDownloads, with a
// progress bar and Cancel; a failure is said below the text), and when it is there the player
// plays the lesson with it; one shows the Models folder in the file manager, the last looks for the
// model again once the files are there.

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace attnlab {

class ModelBanner : public QFrame {
    Q_OBJECT
public:
    explicit ModelBanner(QWidget* parent = nullptr);

    /// Shows `markdown`, or hides the banner when it is empty.
    void setMarkdown(const QString& markdown);
    /// The text shown, as Markdown (empty when hidden).
    QString markdown() const;
    QLabel* label() const { return m_text; }
    QPushButton* revealButton() const { return m_reveal; }
    QPushButton* retryButton() const { return m_retry; }
    QPushButton* downloadButton() const { return m_download; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    /// What went wrong (a download that failed, the Models folder that cannot be shown), or "".
    QString problem() const { return m_problem->isHidden() ? QString() : m_problem->text(); }

    /// The model Download fetches: the Models folder's sub-folder `name` from the hub's `repo`
    /// ("openai-community/gpt2"); an empty `repo` hides the button (a teacher's own model).
    void setDownload(const QString& name, const QString& repo);

signals:
    /// Look for the model again: *Look again* was pressed, or the model arrived in the Models
    /// folder (downloaded here or in File ▸ Models ▸ Get models…).
    void retryRequested();

protected:
    void changeEvent(QEvent* event) override;
    /// The text keeps the height its lines need at its width (a word-wrapped label inside a
    /// splitter would otherwise be squeezed to two lines); the explanation below gives way.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void reveal();
    void fitText();
    void download();
    void showProblem(const QString& text);
    void updateDownload();

    QLabel* m_text;
    QLabel* m_problem;
    QLabel* m_progressText;
    QProgressBar* m_progress;
    QPushButton* m_download;
    QPushButton* m_cancel;
    QPushButton* m_reveal;
    QPushButton* m_retry;
    QString m_markdown;
    QString m_name;
    QString m_repo;
};

} // namespace attnlab
