#include "session/messages.h"

#include "pretrained/model_folder.h"

#include "families/family.h"

#include <QCoreApplication>
#include <QStringList>

namespace attnlab {

namespace {

struct Messages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Messages)
};

QString arg(const Message& m, std::size_t i)
{
    return i < m.args.size() ? QString::fromStdString(m.args[i]) : QString();
}

/// "encoder self-attention of layer 2: " for a layer's block; empty for a single block.
QString where(const Message& m)
{
    const QString block = arg(m, 0);
    const QString layer = arg(m, 1);
    if (block.isEmpty() && layer.isEmpty())
        return {};
    const std::optional<Block> b = parseBlock(block.toStdString());
    QString what = b == Block::EncoderSelf ? Messages::tr("encoder self-attention")
        : b == Block::DecoderSelf          ? Messages::tr("decoder self-attention")
        : b == Block::Cross                ? Messages::tr("cross-attention")
                                           : Messages::tr("attention");
    if (!layer.isEmpty())
        what = Messages::tr("%1 of layer %2").arg(what, layer);
    return Messages::tr("%1: ").arg(what);
}

/// A message of the engine's tables (core/message.h): its line translated, the arguments filled
/// in one pass, then what it wraps.
QString tableText(const MessageTemplate& t, const Message& m)
{
    const QString line = QCoreApplication::translate("attnlab::Messages", t.text);
    const QString text = QString::fromStdString(fillTemplate(line.toStdString(), m.args));
    return m.reasons.empty() ? text : Messages::tr("%1: %2").arg(text, messageText(m.reasons.front()));
}

QString side(const QString& s)
{
    return s == u"target" ? Messages::tr("target") : Messages::tr("source");
}

/// cannot_write: the system's words, then what they mean here (core/message.h).
QString cannotWrite(const Message& m)
{
    const QString path = arg(m, 0);
    const QString reason = arg(m, 1);
    const QString subject = arg(m, 2);
    const QString system = arg(m, 3);
    if (reason == u"is_folder")
        return Messages::tr("cannot write '%1': it is a directory").arg(path);
    if (reason == u"non_finite")
        return Messages::tr("cannot write '%1': the tensor '%2' holds values that are not finite (NaN or infinity); an earlier file of "
                            "that name is unchanged")
            .arg(path, subject);
    QString why;
    if (reason == u"no_folder")
        why = Messages::tr("the folder '%1' does not exist").arg(subject);
    else if (reason == u"not_a_folder")
        why = Messages::tr("'%1' is a file, not a folder").arg(subject);
    else if (reason == u"read_only")
        why = Messages::tr("the folder '%1' is on a read-only file system").arg(subject);
    else if (reason == u"no_permission")
        why = Messages::tr("you have no permission to write in the folder '%1'").arg(subject);
    else if (reason == u"disk_full")
        why = Messages::tr("the disk is full; an earlier file of that name is unchanged");
    else if (reason == u"in_the_way")
        why = Messages::tr("a folder '%1' is where the temporary file must go").arg(subject);
    else if (reason == u"kernel_folder")
        why = Messages::tr("the folder '%1' belongs to the kernel: no file can be made in it").arg(subject);
    else if (reason == u"not_writable")
        why = Messages::tr("you have no permission to write to '%1'").arg(subject);
    else if (reason == u"no_reader")
        why = Messages::tr("no program is reading the pipe '%1': start the reader first").arg(subject);
    else if (reason == u"socket")
        why = Messages::tr("'%1' is a socket, which cannot be written as a file").arg(subject);
    if (why.isEmpty())
        return Messages::tr("cannot write '%1': %2").arg(path, system);
    return Messages::tr("cannot write '%1': %2 (%3)").arg(path, system, why);
}

/// What a session_type message expects (core/message.h).
QString expected(const QString& code)
{
    if (code == u"string")
        return Messages::tr("a string");
    if (code == u"string_or_null")
        return Messages::tr("a string or null");
    if (code == u"integer")
        return Messages::tr("a whole number");
    if (code == u"integer_or_null")
        return Messages::tr("a whole number or null");
    if (code == u"object")
        return Messages::tr("an object");
    if (code == u"base64")
        return Messages::tr("base64 text");
    if (code == u"mask_rows")
        return Messages::tr("rows of values 0 or 1");
    if (code == u"boolean")
        return Messages::tr("true or false");
    return code;
}

/// The session_* messages: a session file that cannot be read (io/session_json.h).
QString sessionText(const Message& m)
{
    const QString c = QString::fromStdString(m.code);
    if (c == u"session_not_json")
        return Messages::tr("not valid JSON: %1").arg(arg(m, 0));
    if (c == u"session_json_limits")
        return Messages::tr("the JSON nests deeper than %1 levels or holds more than %2 values").arg(arg(m, 0), arg(m, 1));
    if (c == u"session_format")
        return Messages::tr("not an Attention Lab session file");
    if (c == u"session_version")
        return Messages::tr("unsupported version %1").arg(arg(m, 0));
    if (c == u"session_missing")
        return Messages::tr("'%1' is missing").arg(arg(m, 0));
    if (c == u"session_type")
        return Messages::tr("'%1' must be %2").arg(arg(m, 0), expected(arg(m, 1)));
    if (c == u"session_mask_not_square")
        return Messages::tr("custom_mask is not square");
    if (c == u"session_mask_size")
        return Messages::tr("custom_mask has %1 rows, more than the %2 tokens of the longest sentence").arg(arg(m, 0), arg(m, 1));
    if (c == u"session_lesson_place")
        return Messages::tr("the lesson's path is empty or its step is negative");
    return QString::fromStdString(m.text);
}

/// training_diverged {step, what (loss, gradient, update), value}.
QString divergedText(const Message& m)
{
    if (arg(m, 1) == u"loss")
        return Messages::tr("training diverged at step %1: the loss is not finite (%2)").arg(arg(m, 0), arg(m, 2));
    if (arg(m, 1) == u"gradient")
        return Messages::tr("training diverged at step %1: the gradient is not finite (its norm is %2)").arg(arg(m, 0), arg(m, 2));
    return Messages::tr("training diverged at step %1: the update made weights that are not finite").arg(arg(m, 0));
}

/// A session file's message, a table's, or (an unknown code) the engine's English text.
QString tableOrSessionText(const Message& m)
{
    if (QString::fromStdString(m.code).startsWith(u"session_"))
        return sessionText(m);
    if (const MessageTemplate* t = findMessageTemplate(m.code))
        return tableText(*t, m);
    return QString::fromStdString(m.text);
}

} // namespace

QString messageText(const Message& m)
{
    const QString& c = QString::fromStdString(m.code);
    if (c == u"invalid_utf8")
        return Messages::tr("the text is not valid UTF-8: invalid bytes were replaced by \uFFFD");
    if (c == u"tokens_cut")
        return Messages::tr("the sentence has %1 tokens; only the first %2 are used (max_tokens)").arg(arg(m, 0), arg(m, 1));
    if (c == u"nothing_padded")
        return Messages::tr("the sentence has %1 tokens, more than pad_to (%2): nothing was padded").arg(arg(m, 0), arg(m, 1));
    if (c == u"side_cut")
        return Messages::tr("the %1 has %2 tokens; only the first %3 are used").arg(side(arg(m, 0)), arg(m, 1), arg(m, 2));
    if (c == u"not_in_vocabulary")
        return Messages::tr("'%1' is not in the model's %2 vocabulary: it is read as <unk>").arg(arg(m, 0), side(arg(m, 1)));
    if (c == u"all_keys_masked")
        return where(m)
            + Messages::tr("query %1 (\u201C%2\u201D) has every key masked: its attention weights are all 0").arg(arg(m, 2), arg(m, 3));
    if (c == u"no_tokens")
        return arg(m, 0) == u"source" ? Messages::tr("the source has no tokens: type at least one")
                                      : Messages::tr("the sentence has no tokens: type at least one word");
    if (c == u"global_out_of_range")
        return Messages::tr("global position %1 is outside the sentence, which has %2 tokens (positions 0 to %3)")
            .arg(arg(m, 0), arg(m, 1), QString::number(arg(m, 1).toLongLong() - 1));
    if (c == u"too_many_cells")
        return Messages::tr("n (%1) squared times heads (%2) exceeds %3 attention cells: use fewer tokens or heads")
            .arg(arg(m, 0), arg(m, 1), arg(m, 2));
    if (c == u"too_many_layer_cells")
        return Messages::tr("the layers' attention matrices would hold %1 cells in all, more than %2: use a shorter sentence")
            .arg(arg(m, 0), arg(m, 1));
    if (c == u"weights_width")
        return Messages::tr("d_model (%1) does not match the weights, whose d_model is %2").arg(arg(m, 0), arg(m, 1));
    if (c == u"no_mask_matrix")
        return Messages::tr("the custom mask needs a mask matrix (a mask file)");
    if (c == u"mask_size")
        return Messages::tr("the custom mask is %1 x %2 but the sentence has %3 tokens: it must be %3 x %3")
            .arg(arg(m, 0), arg(m, 1), arg(m, 2));
    if (c == u"large_run")
        return Messages::tr("a large run: about %1 MB of memory and %2 s of work").arg(arg(m, 0), arg(m, 1));
    if (c == u"too_large")
        return arg(m, 0) == u"weights"
            ? Messages::tr("the weights would need about %1 MB, more than the %2 MB allowed: use a smaller d_model, d_ff or "
                           "fewer layers").arg(arg(m, 1), arg(m, 2))
            : Messages::tr("the trace would need about %1 MB, more than the %2 MB allowed: use a shorter sentence, fewer "
                           "layers or a smaller d_model").arg(arg(m, 1), arg(m, 2));
    if (c == u"overflow")
        return where(m)
            + Messages::tr("the values of \u201C%1\u201D went beyond the range of a float (\u00B13.4\u00D710\u00B3\u2078) and would be "
                           "inf or NaN: the weights or the input are too large; scale them down")
                  .arg(arg(m, 2));
    if (c == u"performer_precision")
        return where(m)
            + Messages::tr("Performer's feature exponents reach %1, where a double is only good to %2: its weights and outputs are "
                           "approximate (the queries and keys are very large)")
                  .arg(arg(m, 2), arg(m, 3));
    if (c == u"no_model_file")
        return Messages::tr("no model file is open: open one first (File \u2192 Open model\u2026)");
    if (c == u"no_output_head")
        return Messages::tr("this model has no output head (a seeded model): generation needs a trained model; type a target "
                            "instead (teacher forcing)");
    if (c == u"no_pad_token")
        return Messages::tr("this model's source vocabulary has no <pad> token: it cannot be padded (set pad_to to 0)");
    if (c == u"target_without_decoder")
        return Messages::tr("this model is an encoder stack without a decoder: a target does not apply");
    if (c == u"pretrained_target")
        return Messages::tr("this model reads one text: a target (teacher forcing) is for encoder\u2013decoder models");
    if (c == u"segment_b_not_bert")
        return Messages::tr("a second segment ([SEP] between two sentences) is for BERT models");
    if (c == u"compare_mask_model")
        return Messages::tr("masks are compared on one attention block only: a Transformer takes its encoder's mask from the "
                            "settings (mask, pad-to), and its decoder's look-ahead mask is always on");
    if (c == u"compare_no_tokens")
        return Messages::tr("the sentence to compare with has no tokens: write at least one word");
    if (c == u"cannot_write")
        return cannotWrite(m);
    if (c == u"training_diverged")
        return divergedText(m);
    return tableOrSessionText(m);
}

QString errorText(const std::exception& e)
{
    if (const auto* carrier = dynamic_cast<const CarriesMessage*>(&e))
        return messageText(carrier->message());
    return QString::fromUtf8(e.what());
}

QString modelFamilyNames()
{
    QStringList names;
    for (const ModelFamily* f : modelFamilies())
        names << QString::fromUtf8(f->title.data(), static_cast<qsizetype>(f->title.size()));
    return names.join(Messages::tr(", "));
}

QString decoderFamilyNames()
{
    QStringList names;
    for (const ModelFamily* f : modelFamilies()) {
        if (f->causal())
            names << QString::fromUtf8(f->title.data(), static_cast<qsizetype>(f->title.size()));
    }
    return names.join(Messages::tr(", "));
}

QString familyTitle(const PretrainedModel* model)
{
    if (!model)
        return Messages::tr("the model");
    const std::string_view title = modelFamily(model->family()).title;
    return QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size()));
}

QString appendSentence(const QString& text, const QString& next)
{
    if (text.isEmpty() || next.isEmpty())
        return text + next;
    // Full-width punctuation (。，；：！？ and the closing brackets) already leaves its own room.
    const QChar last = text.back();
    const bool wide = (last.unicode() >= 0x3000 && last.unicode() <= 0x303F) || (last.unicode() >= 0xFF00 && last.unicode() <= 0xFF60);
    return wide ? text + next : text + QLatin1Char(' ') + next;
}

} // namespace attnlab
