#pragma once
// Type a back row can read (issue 28 §1, §4): projected text is sized from the height of what is
// projected, the screen in presenter mode and the page of a deck, not from the desktop's type.
// 24-point text on a slide is about 4 % of its height; labels, token names and cell numbers are
// at least 3.5 %. The base type is a little above that so that cell numbers, which may be a
// point smaller than the type around them (HeatmapView::cellValueFont), stay above it too.
//
// A window is marked projected while presenter mode shows it (a slide's view is its own
// window): nothing interactive is drawn then (widgets/controlcheckbox.h, markAsControl), and the
// stage's heatmap takes the projected type (HeatmapView::setProjectedType).

#include <QEvent>
#include <QFont>

class QWidget;

namespace attnlab {

/// The least share of the projected height that labels and numbers take.
inline constexpr double kLeastProjectedShare = 0.035;
/// The share the projected base type takes.
inline constexpr double kProjectedShare = 0.037;

/// The point size of the projected base type on a screen (or page) `height` pixels tall at
/// `dotsPerInch` logical dots per inch (a page measured in points: 72).
inline double projectedPointSize(double height, double dotsPerInch)
{
    return kProjectedShare * height * 72.0 / dotsPerInch;
}

/// Marks `window` as projected or not (presenter mode, a slide) with `points` the size of the
/// projected type, hides or shows again its ControlCheckBoxes and the widgets markAsControl()
/// marked, and sends projectionChangeEvent() to every widget in it (the views redraw: their
/// captions leave out what the user is told to click).
void setProjected(QWidget* window, bool projected, double points = 0);
/// The type of the event setProjected() sends.
QEvent::Type projectionChangeEvent();
bool isProjected(const QWidget* window);
/// The projected type's point size in `window` (0 when it is not projected).
double projectedPoints(const QWidget* window);
/// `f`, at least the projected type's size when `w`'s window is projected.
QFont projectedFont(const QWidget* w, QFont f);
/// Marks `w`, which its view never hides or shows (a "S'_h: 6 × 6" line the banner also says),
/// as part of the interface rather than the picture: hidden while its window is projected.
void markAsControl(QWidget* w);

} // namespace attnlab
