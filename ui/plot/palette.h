#pragma once
// Okabe & Ito's qualitative palette ("Color Universal Design", 2008): eight colours told apart
// with every common colour-vision deficiency, for things that have no order (buckets, groups).

#include <QColor>

#include <array>

namespace attnlab {

/// Colour `i` of the palette, cycled: orange, sky blue, bluish green, yellow, blue, vermillion,
/// reddish purple, grey.
inline QColor okabeIto(int i)
{
    static constexpr std::array<QRgb, 8> kColors = {0xffe69f00, 0xff56b4e9, 0xff009e73, 0xfff0e442,
                                                    0xff0072b2, 0xffd55e00, 0xffcc79a7, 0xff999999};
    constexpr int n = static_cast<int>(kColors.size());
    return QColor::fromRgb(kColors[static_cast<std::size_t>(((i % n) + n) % n)]);
}

/// The palette's colours by name, in the order of okabeIto(i): views that give a colour a
/// meaning (the model's choice in orange) name it here rather than spell its RGB.
enum class Okabe { Orange, SkyBlue, BluishGreen, Yellow, Blue, Vermillion, ReddishPurple, Grey };

inline QColor okabeIto(Okabe colour)
{
    return okabeIto(static_cast<int>(colour));
}

} // namespace attnlab
