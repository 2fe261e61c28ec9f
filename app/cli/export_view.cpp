// export --view model: the studio's Model view, on a Session holding the command's model and
// sentence, painted into the file as File ▸ Export view does (export/figureexport.h).

#include "options.h"

#include "export/figureexport.h"
#include "session/session.h"
#include "views/modelview.h"

namespace attnlab::cli {

std::string exportModelView(const ExportCommandOptions& o)
{
    const Seq2SeqModel& model = *o.trace.model;
    Session session;
    session.setSentence(QString::fromStdString(o.trace.source));
    QString error;
    if (model.source == "built-in:reversal") {
        Config c = session.config();
        c.model = ModelKind::Reversal;
        session.setConfig(c);
    } else if (model.source.starts_with("file:") || model.source.starts_with("folder:")) {
        const std::string path = model.source.substr(model.source.find(':') + 1);
        if (!session.importModel(QString::fromStdString(path), &error))
            return error.toStdString();
    } else {
        return "--view model draws a model opened from a file or a folder, or the shipped reversal model";
    }
    if (o.trace.segmentB)
        session.setSegmentB(QString::fromStdString(*o.trace.segmentB));
    if (!session.error().isEmpty())
        return session.error().toStdString();
    // The block drawn: --block, else the one the Model view starts on.
    if (o.block) {
        const int step = session.stepIndex(QStringLiteral("weights"), 0, *o.block);
        if (step < 0)
            return "the model has no block " + std::string(toString(*o.block));
        session.setStep(step);
    }
    ModelView view(&session);
    view.resize(1200, 900);
    ExportOptions options;
    options.format = parseImageFormat(QString::fromStdString(o.format)).value_or(ImageFormat::Png);
    options.dpi = o.dpi;
    const ExportResult r = exportFigure(view, options, QString::fromStdString(o.output));
    return r.ok ? std::string() : r.error.toStdString();
}

} // namespace attnlab::cli
