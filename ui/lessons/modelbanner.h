#pragma once
// The lesson panel's banner for a lesson whose model is not in the Models folder: which model to
// download, from where, the files, the folder to put them in (LessonModels::bannerMarkdown), and
// two buttons: one shows the Models folder in the file manager, the other looks for the model
// again once the files are there.

#include <QFrame>

class QLabel;
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

signals:
    /// Look for the model again.
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

    QLabel* m_text;
    QLabel* m_problem;
    QPushButton* m_reveal;
    QPushButton* m_retry;
    QString m_markdown;
};

} // namespace attnlab
