#pragma once
// Help ▸ Getting started (F1): one short page for a first-time user or a teacher before class —
// what the studio shows (the stages of attention, rows and columns, the settings), the keys that
// step through it (the same keys a presentation clicker sends, read from shell/stepkeys.h so the
// page cannot go stale) and the lessons. A link opens the full shortcut sheet
// (shell/shortcutsheet.h, Help ▸ Keyboard shortcuts), which stays beside it.

#include <QDialog>

class QTextBrowser;

namespace attnlab {

class GettingStarted : public QDialog {
    Q_OBJECT
public:
    explicit GettingStarted(QWidget* parent);

    /// The page as shown (rich text in a read-only browser).
    QTextBrowser* page() const { return m_page; }
    /// The page's text without markup, for tests and the clipboard.
    QString plainText() const;
    /// Writes the page again in the interface's language.
    void refresh();

    /// The page's HTML in the interface's language.
    static QString html();

signals:
    /// The page's link to every keyboard shortcut was clicked.
    void shortcutsRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    QTextBrowser* m_page;
};

} // namespace attnlab
