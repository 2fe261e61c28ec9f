#pragma once
// The models File ▸ Models ▸ Get models… recommends, one line each in catalogue.cpp: the folder
// name (a model lesson/requirement.h knows), the hub's repository, about how much it downloads,
// its licence and what it is good for in class. A family the engine learns to open adds its line.

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace attnlab {

struct RecommendedModel {
    QString name;      ///< the Models folder's sub-folder ("gpt2")
    QString repo;      ///< the hub's repository ("openai-community/gpt2")
    qint64 bytes = 0;  ///< about how much is downloaded (the exact size comes from the hub)
    QString licence;   ///< an SPDX id ("MIT")
    const char* use;   ///< what it is good for in class (English; translated by useText())
};

class ModelCatalogue {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelCatalogue)
public:
    static const QList<RecommendedModel>& recommended();
    /// The model's use in the interface's language.
    static QString useText(const RecommendedModel& model);
};

} // namespace attnlab
