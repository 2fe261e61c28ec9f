#pragma once
// Presenter mode (F11) for a classroom projector: large type, a high-contrast palette, a big
// step counter ("Step 3 / 9"), the window over the whole screen (also where no window manager
// makes it full screen), and a black screen on demand (B), as in presentation software.
// The projection is clean: the view, a large caption strip with the lesson step's text, and
// the counter; menus, tabs, the sentence row and the status bar step aside (the keys and the
// shortcuts still work). On one screen every dock steps aside too; with a second screen the
// presentation goes to the chosen (or the other) screen and every dock stays on the first one,
// as windows beside each other, so the controls stay with the teacher. The lesson panel keeps
// only its steps, explanation and Previous/Next.

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QString>

#include <functional>

class QDockWidget;
class QLabel;
class QMainWindow;
class QScreen;
class QTextBrowser;
class QWidget;

class QMenu;

namespace attnlab {

/// The least type of the caption, as a share of the screen's height (the projected type is
/// kProjectedShare, projectiontype.h): 2.6 % is 20 pixels on a 768-pixel projector.
inline constexpr double kLeastCaptionShare = 0.026;

/// How the caption shows its text: in type of `points`, `height` pixels tall; `paged` only
/// when even the least type does not fit the room.
struct CaptionLayout {
    double points = 0;
    int height = 0;
    bool paged = false;
};

/// Chooses the caption's type and height, given `heightAt(points)`, the text's height in type
/// of that size: the largest type from `largest` down to `least` (in steps of half a point)
/// whose text fits `preferred` (a quarter of the screen, or less when the view cannot give as
/// much); else the least type, as tall as its text if that fits `room` (all the view can give);
/// else the least type in `room`, shown in pages.
CaptionLayout captionLayout(const std::function<int(double)>& heightAt, double largest, double least, int preferred, int room);

class LessonPlayer;
class Session;

class PresenterMode : public QObject {
    Q_OBJECT
public:
    /// Acts on `window`; the type size it returns to is the application's font now.
    PresenterMode(Session* session, LessonPlayer* lessons, QMainWindow* window);

    /// The step counter, hidden outside presenter mode; the window places it.
    QLabel* counter() const { return m_counter; }
    /// The caption strip: the lesson step's text, large, under the view while a lesson plays in
    /// presenter mode; hidden otherwise. The window places it.
    QTextBrowser* caption() const { return m_caption; }
    /// What the projection does not show (the sentence row, the view's tabs, the decoder's
    /// fields): hidden while presenting, also when something shows one meanwhile (a lesson step
    /// that opens an encoder–decoder shows the decoder's panel), and shown again after if it
    /// was or became visible; their owners then show or hide them as their state says.
    void setClutter(const QList<QWidget*>& widgets);
    /// The view the caption shares the screen with, and the share of the screen's height it
    /// needs now (a comparison's three heatmaps need more than one view's least): the caption
    /// takes from the view down to that, or to its minimum height.
    void setView(QWidget* view, std::function<double()> share)
    {
        m_view = view;
        m_viewShare = std::move(share);
    }
    bool isOn() const { return m_on; }
    /// Enters or leaves presenter mode; the same state again does nothing.
    void setOn(bool on);
    /// The counter's text: the lesson's step while a lesson plays, else the stage.
    void updateCounter();
    /// A step's text too long for the screen even in the least caption type (a table, a code
    /// block on a 1024 × 768 projector) is shown in pages of whole lines, as presentation
    /// software builds a slide (the counter says "Step 3 / 9   ▼ 1 / 2"): the clicker's Next (`direction` 1) shows the next page and
    /// Previous (-1) the one before, and say so by returning true; on the last (first) page, or
    /// when the caption has one page, they return false and the lesson steps.
    bool turnCaptionPage(int direction);
    /// The caption's page (from 0) and number of pages: 1 when its text fits.
    int captionPage() const { return m_page; }
    int captionPages() const { return static_cast<int>(m_pageTops.size()); }

    /// The screen chosen for presenter mode (QScreen::name()), or empty for automatic: another
    /// screen than the controls' when there are several, else the window's own.
    const QString& screenChoice() const { return m_screenChoice; }
    /// Chooses the screen; while on, the presentation moves there at once.
    void setScreenChoice(const QString& name);
    /// Fills `menu` with the screens to present on (Automatic, then each screen), the choice
    /// ticked; the menu shows only when there are several screens.
    void listScreens(QMenu* menu);
    /// The screen presenter mode uses (now, or when it starts).
    QScreen* targetScreen() const;
    /// True while the presentation is on another screen than the docks.
    bool controlsApart() const { return m_controlsApart; }
    /// While on: the window's geometry and dock state (QMainWindow::saveGeometry, saveState) as
    /// the user had them before presenter mode, which is what a quit saves, never the
    /// presentation's full screen and hidden docks. Empty while off.
    QByteArray normalGeometry() const { return m_on ? m_savedGeometry : QByteArray(); }
    QByteArray normalState() const { return m_on ? m_dockState : QByteArray(); }

    /// The black screen over the presentation (B); only in presenter mode.
    bool isBlackedOut() const;
    void setBlackout(bool on);
    QWidget* blackScreen() const { return m_black; }

signals:
    /// Presenter mode started or ended (also by Esc): menus that show the state follow it.
    void toggled(bool on);
    void blackoutChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void enter();
    void leave();
    QList<QDockWidget*> openDocks() const;
    /// Hides the side docks (one screen).
    void stepAside();
    /// Lays the window out for its new type and docks before it takes its new size: a window
    /// resized first keeps the larger of the two minimum widths.
    void settleLayout();
    /// Floats every open dock onto `screen`, side by side, in normal type.
    void moveDocksTo(const QScreen* screen);
    /// The caption strip follows the lesson step (shown only while presenting a lesson).
    void updateCaption();
    /// Sizes the caption so that its whole text shows, never behind a scroll bar: in the
    /// projected type within a quarter of the screen if it fits, else in smaller type down to
    /// kLeastCaptionShare of the screen's height, else taller in that type up to a third of the
    /// screen (never taking the view below its minimum height), else in pages (captionLayout()).
    void fitCaption();
    /// Splits the caption's text into pages of whole lines (m_pageTops) and shows page `page`.
    void paginateCaption();
    void showCaptionPage(int page);
    /// The counter's text, with the caption's page ("▼ 1 / 2") while it has pages.
    void updateCounterText();
    /// Hides (or shows again) the menu bar and the clutter.
    void declutter(bool on);

    Session* m_session;
    LessonPlayer* m_lessons;
    QMainWindow* m_window;
    QLabel* m_counter;
    QTextBrowser* m_caption;
    QWidget* m_black;
    QPointer<QWidget> m_view;
    std::function<double()> m_viewShare;
    QList<int> m_pageTops;   ///< where each of the caption's pages starts, in document pixels
    int m_page = 0;
    QList<QWidget*> m_clutter;
    QList<QWidget*> m_clutterHidden; ///< the clutter that was visible, shown again on leaving
    QFont m_normalFont;
    QByteArray m_dockState;            ///< the docks' layout before presenter mode, back on leaving
    QRect m_normalGeometry;            ///< the window's place before presenter mode
    QByteArray m_savedGeometry;        ///< the same as QMainWindow::saveGeometry() has it, for a quit
    QPointer<QScreen> m_controlScreen; ///< the screen the window was on when presenter mode began
    QString m_screenChoice;
    bool m_controlsApart = false;
    bool m_on = false;
};

} // namespace attnlab
