#pragma once
// Type a back row can read (issue 28 §1, §4): projected text is sized from the height of what is
// projected, the screen in presenter mode and the page of a deck, not from the desktop's type.
// 24-point text on a slide is about 4 % of its height; labels, token names and cell numbers are
// at least 3.5 %. The base type is a little above that so that cell numbers, which may be a
// point smaller than the type around them (HeatmapView::cellValueFont), stay above it too.

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

} // namespace attnlab
