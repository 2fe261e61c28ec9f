#pragma once
// A quiet "Computing…" beside the sentence while the Session computes the trace of the newest
// input off the GUI thread (Session::setBackgroundTrace): the views keep the last picture
// meanwhile. It appears only when a computation lasts longer than a glance (kDelayMs), so
// typing on a small model never makes it flicker; hidden, it takes no room (the window's
// smallest width stays what it was).

#include <QLabel>
#include <QTimer>

namespace attnlab {

class Session;

class ComputingIndicator : public QLabel {
    Q_OBJECT
public:
    /// How long a computation runs before the indicator appears.
    static constexpr int kDelayMs = 250;

    explicit ComputingIndicator(Session* session, QWidget* parent = nullptr);

protected:
    void changeEvent(QEvent* event) override;

private:
    void follow(bool computing);
    void retranslate();

    Session* m_session;
    QTimer m_delay;
};

} // namespace attnlab
