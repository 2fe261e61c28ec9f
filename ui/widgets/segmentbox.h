#pragma once
// BERT's second sentence: a label and a box beside the sentence box, shown while a BERT folder
// is open. What is typed becomes segment B ([CLS] A [SEP] B [SEP], token type ids 1), a moment
// after the last key press, as the sentence does; an empty box is one sentence.

#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;

namespace attnlab {

class Session;

class SegmentBox : public QWidget {
    Q_OBJECT
public:
    explicit SegmentBox(Session* session, QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    /// Shown while the session reads a second segment (BERT), with its text.
    void follow();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    Session* m_session;
    QLabel* m_label;
    QLineEdit* m_edit;
    QTimer* m_debounce;
};

} // namespace attnlab
