#include "session/modelsfolder.h"

#include "families/family.h"
#include "lesson/requirement.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

namespace attnlab {

namespace {

constexpr char kEnvironment[] = "ATTNLAB_MODELS_DIR";

// The studio's settings, named in full: the command line (which sets no organisation) reads
// the same ones.
const QString kOrganisation = QStringLiteral("Attention Lab");
const QString kKey = QStringLiteral("modelsFolder");

QString savedFolder()
{
    return QSettings(kOrganisation, kOrganisation).value(kKey).toString();
}

QString& thisRun()
{
    static QString dir;
    return dir;
}

QString clean(const QString& dir)
{
    return QDir::cleanPath(QDir(dir).absolutePath());
}

} // namespace

QString ModelsFolder::defaultPath()
{
    return clean(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/attention-lab/models"));
}

ModelsFolder::Source ModelsFolder::source()
{
    if (!thisRun().isEmpty())
        return Source::ThisRun;
    if (!qEnvironmentVariableIsEmpty(kEnvironment))
        return Source::Environment;
    if (!savedFolder().isEmpty())
        return Source::Settings;
    return Source::Default;
}

QString ModelsFolder::path()
{
    switch (source()) {
    case Source::ThisRun:
        return clean(thisRun());
    case Source::Environment:
        return clean(qEnvironmentVariable(kEnvironment));
    case Source::Settings:
        return clean(savedFolder());
    case Source::Default:
        break;
    }
    return defaultPath();
}

void ModelsFolder::setForThisRun(const QString& dir)
{
    thisRun() = dir.isEmpty() ? QString() : clean(dir);
}

void ModelsFolder::choose(const QString& dir)
{
    setForThisRun(dir);
    QSettings(kOrganisation, kOrganisation).setValue(kKey, thisRun());
}

bool ModelsFolder::ensureExists(QString* error)
{
    const QString dir = path();
    if (QFileInfo(dir).isDir() || QDir().mkpath(dir))
        return true;
    if (error)
        *error = QFileInfo::exists(dir) ? tr("%1 is a file, not a folder").arg(QDir::toNativeSeparators(dir))
                                        : tr("the folder %1 cannot be made").arg(QDir::toNativeSeparators(dir));
    return false;
}

ModelCatalog ModelsFolder::scan()
{
    return scanModelsFolder(QFile::encodeName(path()).toStdString());
}

bool ModelsFolder::reveal(QString* error)
{
    if (!ensureExists(error))
        return false;
    if (QDesktopServices::openUrl(QUrl::fromLocalFile(path())))
        return true;
    if (error)
        *error = tr("no file manager could show %1").arg(QDir::toNativeSeparators(path()));
    return false;
}

QString ModelsFolder::describe(const ModelFolderInfo& model)
{
    const int layers = model.config.layers;
    const int heads = model.config.heads;
    return tr("%1 \u2014 %2, %3 \u00D7 %4")
        .arg(QString::fromStdString(model.name), QString::fromStdString(familyTitle(model.config.family)),
             layers == 1 ? tr("1 layer") : tr("%1 layers").arg(layers), heads == 1 ? tr("1 head") : tr("%1 heads").arg(heads));
}

QString ModelsFolder::filesOf(PretrainedFamily family)
{
    QStringList files;
    for (const std::string& f : requiredFiles(family))
        files << QString::fromStdString(f);
    return files.join(QStringLiteral(", "));
}

QStringList ModelsFolder::downloadHint()
{
    QStringList hint{tr("No model here yet."), tr("into a sub-folder of the same name (gpt2, bert-base-uncased):")};
    // The families whose folders name their own tokenizer files (GPT-2's, BERT's), each on a line.
    for (const ModelFamily* f : modelFamilies()) {
        if (!f->tokenizerJson)
            hint << tr("%1: %2").arg(QString::fromUtf8(f->title.data(), static_cast<qsizetype>(f->title.size())), filesOf(f->id));
    }
    // (Their folders read tokenizer.json; vocab.json + merges.txt only stand in for it.)
    hint << tr("Llama, Mistral, Qwen: %1").arg(QStringLiteral("config.json, model.safetensors, tokenizer.json, tokenizer_config.json"));
    return hint;
}

} // namespace attnlab
