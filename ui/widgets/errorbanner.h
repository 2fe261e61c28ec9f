#pragma once
// Why what the views show is not what the user asked for, inside the stage area above the
// views: the Session's last error (a sentence with no tokens, a mask of the wrong size, too
// large a trace), written in the interface's language, or the failure of a file the user chose.
// The previous result stays drawn below it, so nothing is lost; the banner goes away when the
// next computation succeeds (a computation's error) or when it is closed (a file's).

#include <QFrame>

class QLabel;
class QToolButton;

namespace attnlab {

class Session;

class ErrorBanner : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(Session* session, QWidget* parent = nullptr);

    /// A file action's failure: shown until closed, replaced by the next error.
    void showFileError(const QString& message);
    /// The text shown (empty when hidden).
    QString text() const;
    /// The label holding it (emptied when the banner hides).
    QLabel* label() const { return m_text; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showText(const QString& message, bool fromSession);
    void sessionFailed();
    void sessionSucceeded();
    void dismiss();

    Session* m_session;
    QLabel* m_icon;
    QLabel* m_text;
    QToolButton* m_close;
    bool m_fromSession = false;
};

} // namespace attnlab
