#pragma once
// The length experiment of issue 14 (position/shift.h): the same two tokens, a query and a key
// three positions after it, moved together along an input of 64 and of 512 tokens, with the
// session's seed, weights and head. One line per position scheme: the score of the pair against
// the query's position. Sinusoidal and learned positions change it wherever the pair stands;
// RoPE, ALiBi and relative positions keep it flat — the pair looks the same at position 500 as
// at position 5, which is why such models read inputs longer than they were trained on.

#include "views/captionedview.h"

#include "core/model_spec.h"

#include <map>
#include <vector>

class QCustomPlot;

namespace attnlab {

class Session;

class LengthView : public CaptionedView {
    Q_OBJECT
public:
    /// The two input lengths and the distance between the query and the key.
    static constexpr int kShort = 64;
    static constexpr int kLong = 512;
    static constexpr int kOffset = 3;

    explicit LengthView(Session* session, QWidget* parent = nullptr);

    /// The plots for n = kShort and n = kLong, one graph per scheme.
    QCustomPlot* shortPlot() const { return m_short; }
    QCustomPlot* longPlot() const { return m_long; }
    /// max − min of the current head's scores over both lengths, per scheme drawn.
    const std::map<PositionalEncoding, double>& spread() const { return m_spread; }

private:
    void refresh() override;

    QCustomPlot* m_short;
    QCustomPlot* m_long;
    std::map<PositionalEncoding, double> m_spread;
};

} // namespace attnlab
