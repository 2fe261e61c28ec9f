#include "session/stagecatalogue.h"

#include <QCoreApplication>

namespace attnlab {

const StageTexts* catalogueEntry(StageTable table, QStringView id)
{
    for (const StageTexts& e : table) {
        if (QLatin1String(e.id) == id)
            return &e;
    }
    return nullptr;
}

QString stageText(StageString text)
{
    return text ? QCoreApplication::translate("attnlab::Stages", text) : QString();
}

QString catalogueTitle(StageTables tables, QStringView id)
{
    const StageTexts* e = catalogueEntryWith(tables, id, &StageTexts::title);
    return e ? stageText(e->title) : QString();
}

QString catalogueFormula(StageTables tables, QStringView id, const FormulaSettings& settings)
{
    const StageTexts* e = catalogueEntryWith(tables, id, &StageTexts::formula);
    if (!e)
        return {};
    StageString text = e->formula;
    if (!settings.scaled && e->unscaled)
        text = e->unscaled;
    if (settings.embedScaled && e->embedScaled)
        text = e->embedScaled;
    const QString formula = stageText(text);
    return e->args && settings.spec ? e->args(formula, *settings.spec) : formula;
}

QString catalogueExplanation(StageTables tables, QStringView id)
{
    const StageTexts* e = catalogueEntryWith(tables, id, &StageTexts::explanation);
    return e ? stageText(e->explanation) : QString();
}

} // namespace attnlab
