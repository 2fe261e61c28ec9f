#pragma once
// A view of one kind of stage (the LayerNorm view, the feed-forward view): a caption that says
// what is shown, over the content (the view's plots), and a message in their place when the
// current step has no such stage (another step, or one attention block, which has none).

#include "views/sessionview.h"

class QLabel;

namespace attnlab {

class CaptionedView : public SessionView {
    Q_OBJECT
public:
    /// What is shown, with its numbers, and how to read it.
    QLabel* captionLabel() const { return m_caption; }
    /// Shown instead of the caption and the content when the step has nothing to draw here.
    QLabel* messageLabel() const { return m_message; }

protected:
    CaptionedView(Session* session, QWidget* parent);

    /// The widget the view lays its plots out in (under the caption).
    QWidget* content() const { return m_content; }
    /// Sets the caption: all of `text`, or while its window is projected (presenter mode, a slide)
    /// only its first paragraph (up to the first line break), so the plots keep the room a
    /// projector's large type would take; the banner and the lesson say the rest there.
    void setCaption(const QString& text);
    /// Shows `text` instead of the caption and the content.
    void showMessage(const QString& text);
    /// Shows the caption and the content again.
    void showContent();

private:
    QLabel* m_caption;
    QLabel* m_message;
    QWidget* m_content;
};

} // namespace attnlab
