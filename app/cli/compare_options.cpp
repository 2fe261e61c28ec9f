// export's comparison options (issue 10 §2): --compare TEXT (B is another sentence),
// --compare-pe (the same sentence with positional encoding switched off, or on when A has none),
// --compare-mask MASK and --compare-seed N (the same sentence with another mask or seed).

#include "options.h"

#include "export/compareexport.h"
#include "model/model.h"
#include "text/printable.h"

#include <charconv>

namespace attnlab::cli {

bool GivenComparison::read(const std::string& a, const std::function<const std::string&()>& value)
{
    if (a == "--compare") {
        compare.kind = CompareKind::Sentence;
        compare.sentence = value();
    } else if (a == "--compare-pe") {
        compare.kind = CompareKind::Positional;
    } else if (a == "--compare-mask") {
        const std::string& v = value();
        const auto m = parseMaskKind(v);
        if (!m || *m == MaskKind::Custom)
            throw UsageError("--compare-mask must be none|causal|padding|causal+padding, got " + inQuotes(v));
        compare.kind = CompareKind::Mask;
        compare.mask = *m;
    } else if (a == "--compare-seed") {
        const std::string& v = value();
        std::uint64_t seed = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
        if (v.empty() || ec != std::errc() || end != v.data() + v.size())
            throw UsageError("--compare-seed expects a whole number from 0 to 18446744073709551615, got " + inQuotes(v));
        compare.kind = CompareKind::Seed;
        compare.seed = seed;
    } else {
        return false;
    }
    flags.push_back(a);
    return true;
}

void GivenComparison::check(ExportCommandOptions& o, bool widthGiven, bool heightGiven) const
{
    if (flags.empty())
        return;
    if (flags.size() > 1)
        throw UsageError("give one comparison: " + flags[0] + " and " + flags[1]
                         + " cannot be combined (--compare, --compare-pe, --compare-mask and --compare-seed each make a B)");
    const std::string& flag = flags.front();
    if (o.all)
        throw UsageError(flag + " draws one stage of A and B side by side; drop --all and give --stage");
    if (o.format == "csv")
        throw UsageError(flag + " draws a picture: use --format png, svg or pdf");
    const Config& a = o.trace.request.config;
    Comparison b = compare;
    if (b.kind == CompareKind::Positional) // B: A's positions switched off, or on when A has none
        b = toggled(CompareKind::Positional, a, {});
    if (const auto problem = comparisonProblem(a, b))
        throw UsageError(flag + ": " + problem->text);
    o.compare = b;
    if (!widthGiven)
        o.width = kCompareExportWidth;
    if (!heightGiven)
        o.height = kCompareExportHeight;
}

TraceOptions comparedOptions(const TraceOptions& a, const Comparison& b)
{
    TraceOptions o = a;
    o.request.config = comparedConfig(a.request.config, b);
    o.request.sentence = comparedText(a.request.sentence, b);
    o.source = comparedText(a.source, b);
    o.saveWeights.reset();
    o.saveModel.reset();
    // A seeded model is made from its settings: other positions or another seed, another model.
    const Config& c = o.request.config;
    if (a.model && c.model == ModelKind::Seeded && (c.positional != a.request.config.positional || c.seed != a.request.config.seed))
        o.model = std::make_shared<const Seq2SeqModel>(seededModel(c));
    return o;
}

} // namespace attnlab::cli
