#pragma once
// The computation's warnings (the tokenizer cut the sentence, a character had no id, …) in the
// status bar: a drawn warning icon and one line of text, the whole list in its tooltip. It never
// pushes the views down, and its icon is a picture, not a symbol a font may lack.

#include <QStringList>
#include <QWidget>

class QLabel;

namespace attnlab {

class WarningLine : public QWidget {
    Q_OBJECT
public:
    explicit WarningLine(QWidget* parent = nullptr);

    /// Shows `warnings` (hidden when empty).
    void setWarnings(const QStringList& warnings);
    const QStringList& warnings() const { return m_warnings; }
    /// The text shown (elided to the width it has).
    QString shownText() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QStringList m_warnings;
    QLabel* m_icon;
    QLabel* m_text;
};

} // namespace attnlab
