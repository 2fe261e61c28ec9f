#include "core/message.h"

#include "text/printable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attnlab {

namespace messages {

namespace {

std::string str(long long v) { return std::to_string(v); }

} // namespace

Message invalidUtf8()
{
    return {"invalid_utf8", {}, "the text is not valid UTF-8: invalid bytes were replaced by \xEF\xBF\xBD"};
}

Message tokensCut(long long count, long long max)
{
    return {"tokens_cut", {str(count), str(max)},
            "the sentence has " + str(count) + " tokens; only the first " + str(max) + " are used (max_tokens)"};
}

Message nothingPadded(long long count, long long padTo)
{
    return {"nothing_padded", {str(count), str(padTo)},
            "the sentence has " + str(count) + " tokens, more than pad_to (" + str(padTo) + "): nothing was padded"};
}

Message sideCut(const std::string& side, long long count, long long max)
{
    return {"side_cut", {side, str(count), str(max)},
            "the " + side + " has " + str(count) + " tokens; only the first " + str(max) + " are used"};
}

Message notInVocabulary(const std::string& token, const std::string& side)
{
    // At most 40 bytes, cut before a character, not inside one.
    std::size_t cut = std::min<std::size_t>(token.size(), 40);
    while (cut > 0 && cut < token.size() && (static_cast<unsigned char>(token[cut]) & 0xC0) == 0x80)
        --cut;
    const std::string shown = token.substr(0, cut);
    return {"not_in_vocabulary", {shown, side}, inQuotes(shown) + " is not in the model's " + side + " vocabulary: it is read as <unk>"};
}

namespace {

/// "cross-attention of layer 1: " for a layer's block; nothing for a single block.
std::string where(Block block, std::optional<int> layer)
{
    std::string where;
    if (block != Block::None || layer) {
        where = block == Block::EncoderSelf ? "encoder self-attention"
            : block == Block::DecoderSelf   ? "decoder self-attention"
            : block == Block::Cross         ? "cross-attention"
                                            : "attention";
        if (layer)
            where += " of layer " + str(*layer);
        where += ": ";
    }
    return where;
}

} // namespace

Message allKeysMasked(Block block, std::optional<int> layer, long long query, const std::string& token)
{
    return {"all_keys_masked",
            {std::string(toString(block)), layer ? str(*layer) : std::string(), str(query), token},
            where(block, layer) + "query " + str(query) + " (\xE2\x80\x9C" + printable(token) + "\xE2\x80\x9D) has every key masked: its attention weights are all 0"};
}

Message performerPrecision(Block block, std::optional<int> layer, double largest)
{
    const double spacing = std::ldexp(1.0, std::ilogb(largest) - 52); // a double's spacing at `largest`
    char a[32], b[32];
    std::snprintf(a, sizeof a, "%.2g", largest);
    std::snprintf(b, sizeof b, "%.2g", spacing);
    return {"performer_precision",
            {std::string(toString(block)), layer ? str(*layer) : std::string(), a, b},
            where(block, layer) + "Performer's feature exponents reach " + a + ", where a double is only good to " + b
                + ": its weights and outputs are approximate (the queries and keys are very large)"};
}

Message noTokens(const std::string& side)
{
    return {"no_tokens", {side},
            side == "source" ? "the source has no tokens: type at least one" : "the sentence has no tokens: type at least one word"};
}

Message tooManyCells(long long n, long long heads, long long max)
{
    return {"too_many_cells", {str(n), str(heads), str(max)},
            "n (" + str(n) + ") squared times heads (" + str(heads) + ") exceeds " + str(max)
                + " attention cells: use fewer tokens or heads"};
}

Message tooManyLayerCells(long long cells, long long max)
{
    return {"too_many_layer_cells", {str(cells), str(max)},
            "the layers' attention matrices would hold " + str(cells) + " cells in all, more than " + str(max)
                + ": use a shorter sentence"};
}

Message weightsWidth(long long dModel, long long weightsDModel)
{
    return {"weights_width", {str(dModel), str(weightsDModel)},
            "d_model (" + str(dModel) + ") does not match the weights, whose d_model is " + str(weightsDModel)};
}

Message noMaskMatrix()
{
    return {"no_mask_matrix", {}, "the custom mask needs a mask matrix (a mask file)"};
}

Message maskSize(long long rows, long long cols, long long n)
{
    return {"mask_size", {str(rows), str(cols), str(n)},
            "the custom mask is " + str(rows) + " x " + str(cols) + " but the sentence has " + str(n) + " tokens: it must be "
                + str(n) + " x " + str(n)};
}

Message noModelFile()
{
    return {"no_model_file", {}, "no model file is open: open one first (File \u2192 Open model\u2026, or --model FILE)"};
}

Message noOutputHead()
{
    return {"no_output_head", {},
            "this model has no output head (a seeded model): generation needs a trained model; type a target instead (teacher forcing)"};
}

Message noPadToken()
{
    return {"no_pad_token", {}, "this model's source vocabulary has no <pad> token: it cannot be padded (set pad_to to 0)"};
}

Message targetWithoutDecoder()
{
    return {"target_without_decoder", {}, "this model is an encoder stack without a decoder: a target does not apply"};
}

Message pretrainedTarget()
{
    return {"pretrained_target", {}, "GPT-2 and BERT read one text: a target (teacher forcing) is for encoder–decoder models"};
}

Message segmentBNotBert()
{
    return {"segment_b_not_bert", {}, "a second segment ([SEP] between two sentences) is for BERT models"};
}

Message globalOutOfRange(long long position, long long n)
{
    return {"global_out_of_range", {str(position), str(n)},
            "global position " + str(position) + " is outside the sentence, which has " + str(n) + " tokens (positions 0 to "
                + str(n - 1) + ")"};
}

Message largeRun(double megabytes, double seconds)
{
    const std::string mb = str(static_cast<long long>(megabytes + 0.5)), s = str(static_cast<long long>(seconds + 0.5));
    return {"large_run", {mb, s}, "a large run: about " + mb + " MB of memory and " + s + " s of work"};
}

Message tooLarge(const std::string& what, double megabytes, double limit)
{
    const std::string mb = str(static_cast<long long>(megabytes + 0.5)), max = str(static_cast<long long>(limit + 0.5));
    const std::string reduce = what == "weights" ? "use a smaller d_model, d_ff or fewer layers"
                                                 : "use a shorter sentence, fewer layers or a smaller d_model";
    return {"too_large", {what, mb, max},
            "the " + what + " would need about " + mb + " MB, more than the " + max + " MB allowed: " + reduce};
}

Message workTooLarge(const std::string& what, const std::string& size, const std::string& limit, const std::string& reduce)
{
    return {"work_too_large", {what, size, limit, reduce},
            what + " would need about " + size + " of memory; the limit is " + limit + ": " + reduce};
}

Message largeWork(const std::string& size, const std::string& duration, const std::string& detail)
{
    return {"large_work", {size, duration, detail},
            "a large run: about " + size + " of memory and " + duration + " of work" + (detail.empty() ? "" : " (" + detail + ")")};
}

Message overflow(Block block, std::optional<int> layer, const std::string& stage)
{
    return {"overflow",
            {std::string(toString(block)), layer ? str(*layer) : std::string(), stage},
            where(block, layer) + "the values of \"" + stage
                + "\" went beyond the range of a float (\u00B13.4e38) and would be inf or NaN: the weights or the input are "
                  "too large; scale them down"};
}

Message compareMaskWithModel()
{
    return {"compare_mask_model", {},
            "masks are compared on one attention block only: a Transformer takes its encoder's mask from the settings (mask, pad-to), and its decoder's look-ahead mask is always on"};
}

Message compareNoTokens()
{
    return {"compare_no_tokens", {}, "the sentence to compare with has no tokens: write at least one word"};
}

Message sessionNotJson(const std::string& detail)
{
    return {"session_not_json", {detail}, "not valid JSON: " + detail};
}

Message sessionJsonLimits(long long depth, long long values)
{
    return {"session_json_limits", {str(depth), str(values)},
            "the JSON nests deeper than " + str(depth) + " levels or holds more than " + str(values) + " values"};
}

Message sessionFormat()
{
    return {"session_format", {}, "not an Attention Lab session file"};
}

Message sessionVersion(const std::string& version)
{
    return {"session_version", {version}, "unsupported version " + version};
}

Message sessionMissing(const std::string& key)
{
    return {"session_missing", {key}, "'" + key + "' is missing"};
}

Message sessionType(const std::string& key, const std::string& expected)
{
    const std::string what = expected == "string" ? "a string"
        : expected == "string_or_null"            ? "a string or null"
        : expected == "integer"                   ? "a whole number"
        : expected == "integer_or_null"           ? "a whole number or null"
        : expected == "object"                    ? "an object"
        : expected == "base64"                    ? "base64 text"
        : expected == "mask_rows"                 ? "rows of values 0 or 1"
        : expected == "boolean"                   ? "true or false"
                                                  : expected;
    return {"session_type", {key, expected}, "'" + key + "' must be " + what};
}

Message sessionMaskNotSquare()
{
    return {"session_mask_not_square", {}, "custom_mask is not square"};
}

Message sessionMaskSize(long long rows, long long max)
{
    return {"session_mask_size", {str(rows), str(max)},
            "custom_mask has " + str(rows) + " rows, more than the " + str(max) + " tokens of the longest sentence"};
}

Message sessionLessonPlace()
{
    return {"session_lesson_place", {}, "the lesson's path is empty or its step is negative"};
}

Message trainingDiverged(int step, const std::string& what, const std::string& value)
{
    std::string text = "training diverged at step " + str(step) + ": ";
    if (what == "loss")
        text += "the loss is not finite (" + value + ")";
    else if (what == "gradient")
        text += "the gradient is not finite (its norm is " + value + ")";
    else
        text += "the update made weights that are not finite";
    return {"training_diverged", {str(step), what, value}, text};
}

Message cannotWrite(const std::string& path, const std::string& reason, const std::string& subject, const std::string& system)
{
    // The system's words first (scripts match them), then what they mean here.
    std::string why;
    if (reason == "no_folder")
        why = "the folder '" + subject + "' does not exist";
    else if (reason == "not_a_folder")
        why = "'" + subject + "' is a file, not a folder";
    else if (reason == "read_only")
        why = "the folder '" + subject + "' is on a read-only file system";
    else if (reason == "no_permission")
        why = "you have no permission to write in the folder '" + subject + "'";
    else if (reason == "disk_full")
        why = "the disk is full; an earlier file of that name is unchanged";
    else if (reason == "in_the_way")
        why = "a folder '" + subject + "' is where the temporary file must go";
    else if (reason == "kernel_folder")
        why = "the folder '" + subject + "' belongs to the kernel: no file can be made in it";
    else if (reason == "not_writable")
        why = "you have no permission to write to '" + subject + "'";
    else if (reason == "no_reader")
        why = "no program is reading the pipe '" + subject + "': start the reader first";
    else if (reason == "socket")
        why = "'" + subject + "' is a socket, which cannot be written as a file";
    std::string text = "cannot write '" + path + "': ";
    if (reason == "is_folder")
        text += "it is a directory";
    else if (reason == "non_finite")
        text += "the tensor '" + subject + "' holds values that are not finite (NaN or infinity); an earlier file of that name is unchanged";
    else if (why.empty())
        text += system;
    else
        text += system + " (" + why + ")";
    return {"cannot_write", {path, reason, subject, system}, text};
}

} // namespace messages

std::string fillTemplate(std::string_view text, const std::vector<std::string>& args)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (text[i] == '%' && next >= '1' && next <= '9') {
            const auto k = static_cast<std::size_t>(next - '1');
            out += k < args.size() ? args[k] : std::string();
            ++i;
        } else if (text[i] == '%' && next == '%') {
            out += '%';
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

namespace detail {

std::string messageArg(double v)
{
    // The shortest of %.1g … %.17g that reads back as v: 0.1, not 0.10000000000000001.
    char buffer[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
        if (std::strtod(buffer, nullptr) == v || !std::isfinite(v))
            break;
    }
    return buffer;
}

Message makeMessage(const MessageTemplate& t, std::vector<std::string> args, std::vector<Message> reasons)
{
    std::string text = fillTemplate(t.text, args);
    if (!reasons.empty())
        text += ": " + reasons.front().text;
    return {std::string(t.code), std::move(args), std::move(text), std::move(reasons)};
}

} // namespace detail

Message messageOf(const std::exception& e)
{
    if (const auto* carrier = dynamic_cast<const CarriesMessage*>(&e))
        return carrier->message();
    return Message{{}, {}, e.what()};
}

const MessageTemplate* findMessageTemplate(std::string_view code)
{
    for (const MessageTemplate* t : messageTemplates()) {
        if (t->code == code)
            return t;
    }
    return nullptr;
}

std::vector<std::string> texts(const std::vector<Message>& messages)
{
    std::vector<std::string> out;
    out.reserve(messages.size());
    for (const auto& m : messages)
        out.push_back(m.text);
    return out;
}

} // namespace attnlab
