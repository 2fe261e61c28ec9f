#include "session/models.h"

#include <QFile>

namespace attnlab {

std::shared_ptr<const Seq2SeqModel> shippedModel(QString* error)
{
    // Parsed once: every session and every lesson step shares the same weights.
    static const auto cached = []() -> std::pair<std::shared_ptr<const Seq2SeqModel>, QString> {
        QFile f(QString::fromLatin1(kShippedModelResource));
        if (!f.open(QIODevice::ReadOnly))
            return {nullptr, QStringLiteral("the shipped model is missing from this build (%1)").arg(f.fileName())};
        const QByteArray bytes = f.readAll();
        try {
            auto m = std::make_shared<Seq2SeqModel>(modelFromTensors(parseSafetensors(std::string_view(bytes.constData(), std::size_t(bytes.size())))));
            m->source = "built-in:reversal";
            m->weights.source = m->source;
            return {std::move(m), QString()};
        } catch (const std::exception& e) {
            return {nullptr, QStringLiteral("the shipped model cannot be read: %1").arg(QString::fromStdString(e.what()))};
        }
    }();
    if (!cached.first && error)
        *error = cached.second;
    return cached.first;
}

std::shared_ptr<const Seq2SeqModel> readModelFile(const QString& path, QString* error)
{
    try {
        return std::make_shared<const Seq2SeqModel>(loadModel(path.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

} // namespace attnlab
