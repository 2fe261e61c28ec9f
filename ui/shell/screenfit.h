#pragma once
// Fitting a window to the screen it opens on: no part of it beyond the available area (the
// screen less its panels and docks), whatever size was asked for or saved last time.

#include <QMargins>
#include <QRect>

namespace attnlab {

/// `wanted` made no larger than `available` and moved inside it, keeping its place when it
/// already fits.
QRect fitInto(const QRect& wanted, const QRect& available);

/// The room a window's frame (title bar, borders) takes, given its frame geometry and its
/// geometry; none before a window manager has framed it.
QMargins frameMargins(const QRect& frameGeometry, const QRect& geometry);

} // namespace attnlab
