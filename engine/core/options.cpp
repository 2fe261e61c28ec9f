#include "core/options.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace attnlab {

namespace {

using K = AttentionKind;
using P = PositionalEncoding;
using A = AttentionOptions;
using Pos = PositionOptions;

constexpr double kTokens = ConfigLimits::maxTokens;
constexpr double kParameter = kMaxAttentionParameter;

std::vector<OptionInfo> makeOptions()
{
    const std::vector<K> windowed{K::SlidingWindow, K::BigBird};
    return {
        // The attention kinds' (docs/attention-kinds.md).
        {.key = "window", .flag = "--window", .metavar = "W", .member = &A::window, .kinds = windowed, .min = 1, .max = kTokens,
         .help = "sliding-window, bigbird: keys up to W·D positions away (default 2)"},
        {.key = "dilation", .flag = "--dilation", .metavar = "D", .member = &A::dilation, .kinds = windowed, .min = 1, .max = kTokens,
         .help = "sliding-window, bigbird: only every D-th key (default 1)"},
        {.key = "global", .flag = "--global", .metavar = "P,P,...", .member = &A::global, .kinds = windowed, .min = 0,
         .max = kTokens - 1, .sentence = "global position {v} must be between {min} and {max}",
         .help = "sliding-window, bigbird: positions that attend, and are attended by, all"},
        {.key = "random", .flag = "--random", .metavar = "R", .member = &A::random, .kinds = {K::BigBird}, .min = 0, .max = kTokens,
         .help = "bigbird: R seeded random keys per query (default 2)"},
        {.key = "stride", .flag = "--stride", .metavar = "S", .member = &A::stride, .kinds = {K::Strided}, .min = 1, .max = kTokens,
         .help = "strided: |i - j| < S or S divides i - j (default 4)"},
        {.key = "proj_dim", .flag = "--proj-dim", .metavar = "K", .member = &A::projDim, .kinds = {K::Linformer}, .min = 1,
         .max = kParameter, .help = "linformer: keys and values projected to K rows (default 8)"},
        {.key = "features", .flag = "--features", .metavar = "M", .member = &A::features, .kinds = {K::Performer}, .min = 1,
         .max = kParameter, .help = "performer: M random features (default 64)"},
        {.key = "buckets", .flag = "--buckets", .metavar = "B", .member = &A::buckets, .kinds = {K::Lsh}, .min = 2, .max = kParameter,
         .even = true,
         .sentence = "buckets ({v}) must be an even number between {min} and {max}: a bucket is the largest of B/2 rotated "
                     "coordinates and their negatives",
         .help = "lsh: B hash buckets, even (default 4)"},
        {.key = "chunk", .flag = "--chunk", .metavar = "C", .member = &A::chunk, .kinds = {K::Lsh}, .min = 0, .max = kTokens,
         .sentence = "chunk ({v}) must be 0 (no chunking) or between 1 and {max}", .help = "lsh: chunks of C sorted tokens (default 0: none)"},
        {.key = "query_block", .flag = "--query-block", .metavar = "R", .member = &A::queryBlock, .kinds = {K::Flash}, .min = 1,
         .max = kParameter, .rule = ": the queries are taken B_r at a time (a tile's rows)",
         .help = "flash: tiles of R queries, 1..4096 (default 4)"},
        {.key = "key_block", .flag = "--key-block", .metavar = "C", .member = &A::keyBlock, .kinds = {K::Flash}, .min = 1,
         .max = kParameter, .rule = ": the keys are taken B_c at a time (a tile's columns)",
         .help = "flash: tiles of C keys, 1..4096 (default 4)"},
        // The position schemes' that act inside attention (docs/position-schemes.md).
        {.key = "rope_base", .flag = "--rope-base", .metavar = "B", .member = &Pos::ropeBase, .scheme = P::Rope, .min = 1, .max = 1e12,
         .minExcluded = true,
         .sentence = "rope_base ({v}) must be a number greater than 1 (and at most 1e12): the angles are pos / B^(2i/d_k)",
         .help = "RoPE's base B in pos / B^(2i/d_k), greater than 1 (default 10000)"},
        {.key = "max_distance", .flag = "--max-distance", .metavar = "K", .member = &Pos::maxDistance, .scheme = P::Relative, .min = 1,
         .max = kTokens, .rule = ": distances j − i are clipped to [−K, K]",
         .help = "relative: the largest distance told apart (|j - i| > K counts as K),\n1..1024 (default 4)"},
        {.key = "segment", .flag = "--segment", .metavar = "L", .member = &Pos::segment, .scheme = P::Xl, .min = 1, .max = kTokens,
         .rule = ": Transformer-XL cuts the input into segments of L tokens", .help = "xl: segments of L tokens, 1..1024 (default 4)"},
        {.key = "memory", .flag = "--memory", .metavar = "M", .member = &Pos::memory, .scheme = P::Xl, .min = -1, .max = kTokens,
         .sentence = "memory ({v}) must be between 0 and {max} rows (or left out: as many as a segment)", .negativeMeans = "segment",
         .help = "xl: each segment also sees the M rows before it, 0..1024\n(default: leave it out for M = L)"},
    };
}

std::string str(double v)
{
    return std::to_string(static_cast<long long>(v));
}

std::string format(const OptionInfo& o, const std::string& value)
{
    std::string s(o.sentence);
    const std::pair<std::string_view, std::string> fields[] = {{"{v}", value}, {"{min}", str(o.min)}, {"{max}", str(o.max)}};
    for (const auto& [field, text] : fields) {
        for (std::size_t at = s.find(field); at != std::string::npos; at = s.find(field, at + text.size()))
            s.replace(at, field.size(), text);
    }
    return s;
}

bool valid(const OptionInfo& o, double v)
{
    const bool aboveMin = o.minExcluded ? v > o.min : v >= o.min;
    return aboveMin && v <= o.max && (!o.even || std::fmod(v, 2) == 0); // NaN is none of these
}

void check(const OptionInfo& o, double v, const std::string& text, std::vector<std::string>& out)
{
    if (valid(o, v))
        return;
    if (!o.sentence.empty())
        out.push_back(format(o, text));
    else
        out.push_back(std::string(o.key) + " (" + text + ") must be between " + str(o.min) + " and " + str(o.max) + std::string(o.rule));
}

} // namespace

const std::vector<OptionInfo>& options()
{
    static const std::vector<OptionInfo> kOptions = makeOptions();
    return kOptions;
}

const OptionInfo* optionByKey(std::string_view key)
{
    for (const auto& o : options()) {
        if (o.key == key)
            return &o;
    }
    return nullptr;
}

const OptionInfo* optionByFlag(std::string_view flag)
{
    for (const auto& o : options()) {
        if (o.flag == flag)
            return &o;
    }
    return nullptr;
}

bool readsOption(const ModelSpec& spec, const OptionInfo& o)
{
    if (isKindOption(o))
        return std::find(o.kinds.begin(), o.kinds.end(), spec.attention) != o.kinds.end();
    return o.scheme == spec.positional;
}

int writtenValue(const ModelSpec& spec, const OptionInfo& o, int value)
{
    if (value >= 0 || o.negativeMeans.empty())
        return value;
    const OptionInfo* other = optionByKey(o.negativeMeans);
    return visitOption(*other, spec, [](const auto& v) -> int {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, int>)
            return v;
        else
            return 0; // (negativeMeans names an int option)
    });
}

void optionProblems(const ModelSpec& spec, const OptionInfo& o, std::vector<std::string>& out)
{
    visitOption(o, spec, [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int>>) {
            for (const int p : v)
                check(o, p, std::to_string(p), out);
        } else if constexpr (std::is_same_v<T, double>) {
            check(o, v, detail::shortNumber(v), out);
        } else {
            check(o, v, std::to_string(v), out);
        }
    });
}

std::string optionsHelp(bool (*pick)(const OptionInfo&))
{
    std::string out;
    for (const auto& o : options()) {
        if (!pick(o))
            continue;
        std::string head = "  " + std::string(o.flag) + " " + std::string(o.metavar);
        head.resize(std::max<std::size_t>(head.size() + 1, 25), ' ');
        std::string_view help = o.help;
        for (std::size_t line = 0; !help.empty() || line == 0; ++line) {
            const std::size_t end = std::min(help.find('\n'), help.size());
            out += (line == 0 ? head : std::string(25, ' ')) + std::string(help.substr(0, end)) + "\n";
            help = end < help.size() ? help.substr(end + 1) : std::string_view{};
        }
    }
    return out;
}

} // namespace attnlab
