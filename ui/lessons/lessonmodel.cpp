#include "lessons/lessonmodel.h"

#include "hub/hubaddress.h"
#include "session/modelsfolder.h"
#include "session/session.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace attnlab {

namespace {

/// The Session's model is this folder already (opening it again would only cost time).
bool isOpen(const Session& session, const QString& folder)
{
    return session.model() && !session.modelPath().isEmpty() && QDir(session.modelPath()) == QDir(folder);
}

/// Every step that runs the model (and the header's settings, when they do) gets its widths.
void adoptWidths(Lesson& lesson, const HfConfig& config)
{
    const auto adopt = [&](Config& c) {
        if (c.model != ModelKind::File)
            return;
        c.dModel = config.dModel;
        c.heads = config.heads;
    };
    adopt(lesson.config);
    for (LessonStep& s : lesson.steps)
        adopt(s.config);
}

QString inCode(const QString& text)
{
    return QLatin1Char('`') + text + QLatin1Char('`');
}

} // namespace

LessonModel LessonModels::open(Session& session, Lesson& lesson)
{
    LessonModel result;
    if (!lesson.requirement)
        return result;
    const ModelCatalog catalog = ModelsFolder::scan();
    const RequirementMatch match = findRequiredModel(catalog, *lesson.requirement, lesson.modelUse);
    if (match.unusable) {
        const HfConfig& c = match.unusable->config;
        const ModelUse& use = lesson.modelUse;
        result.problem = c.family != lesson.requirement->family
                           ? tr("it holds a %1 model, and this lesson needs %2").arg(QString::fromStdString(familyTitle(c.family)),
                                                                                     QString::fromStdString(familyTitle(lesson.requirement->family)))
                           : tr("it has %1 layers and %2 heads, and this lesson's steps need at least %3 layers and %4 heads")
                                 .arg(c.layers)
                                 .arg(c.heads)
                                 .arg(use.layers)
                                 .arg(use.heads);
    }
    if (!match.folder) {
        result.state = LessonModel::State::Missing;
        return result;
    }
    result.folder = QFile::decodeName(match.folder->path.c_str());
    QString error;
    if (!isOpen(session, result.folder) && !session.importModel(result.folder, &error)) {
        result.state = LessonModel::State::Failed;
        result.problem = error;
        return result;
    }
    adoptWidths(lesson, match.folder->config);
    result.state = LessonModel::State::Opened;
    result.problem.clear(); // another folder of the same model did
    return result;
}

QString LessonModels::bannerMarkdown(const Lesson& lesson, const LessonModel& model)
{
    if (model.ready() || !lesson.requirement)
        return {};
    const ModelRequirement& r = *lesson.requirement;
    const QString name = QString::fromStdString(r.name);
    const QString family = QString::fromStdString(familyTitle(r.family));
    const QString files = ModelsFolder::filesOf(r.family);
    const QString folder = QDir::toNativeSeparators(ModelsFolder::path() + QLatin1Char('/') + name);
    QString text;
    if (model.state == LessonModel::State::Failed) {
        text = tr("**The model folder %1 could not be opened:** %2").arg(inCode(QDir::toNativeSeparators(model.folder)), model.problem)
             + QStringLiteral("\n\n") + tr("It needs these files: %1.").arg(files);
    } else {
        text = tr("**This lesson needs the %1 model %2**, which is not in your Models folder.").arg(family, inCode(name));
        text += QStringLiteral("\n\n");
        if (!r.hubId.empty()) {
            const QString hubId = QString::fromStdString(r.hubId);
            const auto repo = HubAddress::parseRepoId(hubId, nullptr);
            const QString url = repo ? HubAddress::pageUrl(HubAddress::endpoint(), *repo).toString() : QStringLiteral("https://huggingface.co/") + hubId;
            text += tr("**Download** fetches its files (%1) from the Hugging Face hub ([%2](%3)) into %4.").arg(files, hubId, url, inCode(folder));
        } else {
            text += tr("Put its files (%1) into %2").arg(files, inCode(folder));
        }
        if (!model.problem.isEmpty())
            text += QStringLiteral("\n\n") + tr("The folder %1 there cannot be used: %2").arg(inCode(name), model.problem);
    }
    return text + QStringLiteral("\n\n") + tr("Until then the steps that need it show their text only; press *Look again* after the download.");
}

QString LessonModels::missingText(const Lesson& lesson, const LessonModel& model)
{
    if (model.ready() || !lesson.requirement)
        return {};
    const ModelRequirement& r = *lesson.requirement;
    const QString name = QString::fromStdString(r.name);
    const QString folder = QDir::toNativeSeparators(ModelsFolder::path() + QLatin1Char('/') + name);
    if (model.state == LessonModel::State::Failed)
        return tr("the model folder %1 could not be opened: %2; the steps that need it are left out")
            .arg(QDir::toNativeSeparators(model.folder), model.problem);
    QString text = tr("this lesson needs the model %1, which is not in %2: the steps that need it are left out").arg(name, folder);
    if (!r.hubId.empty())
        text += tr("; get it with: attention-lab-cli download %1").arg(QString::fromStdString(r.hubId));
    else
        text += tr("; put its files (%1) there").arg(ModelsFolder::filesOf(r.family));
    if (!model.problem.isEmpty())
        text += tr("; the folder there cannot be used: %1").arg(model.problem);
    return text;
}

QString LessonModels::deckPageTitle(const Lesson& lesson, const LessonModel& model)
{
    const QString name = lesson.requirement ? QString::fromStdString(lesson.requirement->name) : QString();
    return model.state == LessonModel::State::Failed ? tr("The model %1 could not be opened").arg(name)
                                                     : tr("This lesson needs the model %1").arg(name);
}

QString LessonModels::deckPageMarkdown(const Lesson& lesson, const LessonModel& model)
{
    if (!lesson.requirement)
        return {};
    const ModelRequirement& r = *lesson.requirement;
    const QString name = QString::fromStdString(r.name);
    const QString folder = QDir::toNativeSeparators(ModelsFolder::path() + QLatin1Char('/') + name);
    const auto total = static_cast<int>(lesson.steps.size());
    const auto leftOut = static_cast<int>(std::count_if(lesson.steps.begin(), lesson.steps.end(), [](const LessonStep& s) { return s.needsModel(); }));
    QString text = tr("The %1 steps of %2 that show the %3 model %4 are left out of this deck.")
                       .arg(leftOut)
                       .arg(total)
                       .arg(QString::fromStdString(familyTitle(r.family)), inCode(name));
    text += QStringLiteral("\n\n");
    if (model.state == LessonModel::State::Failed) {
        text += tr("The folder %1 could not be opened: %2").arg(inCode(QDir::toNativeSeparators(model.folder)), model.problem);
        text += QStringLiteral("\n\n") + tr("It needs these files: %1.").arg(ModelsFolder::filesOf(r.family));
    } else if (!r.hubId.empty()) {
        text += tr("**Get it on the command line:**") + QStringLiteral("\n\n") + inCode(QStringLiteral("attention-lab-cli download ") + QString::fromStdString(r.hubId));
        text += QStringLiteral("\n\n") + tr("**or in the studio:** File \u25B8 Models \u25B8 Get models\u2026, or *Download* in the lesson's banner.");
        text += QStringLiteral("\n\n") + tr("It goes into %1.").arg(inCode(folder));
    } else {
        text += tr("Put its files (%1) into %2.").arg(ModelsFolder::filesOf(r.family), inCode(folder));
    }
    if (!model.problem.isEmpty() && model.state != LessonModel::State::Failed)
        text += QStringLiteral("\n\n") + tr("The folder %1 there cannot be used: %2").arg(inCode(name), model.problem);
    return text + QStringLiteral("\n\n") + tr("Then render this deck again: every step is drawn with the model.");
}

} // namespace attnlab
