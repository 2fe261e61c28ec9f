#pragma once
// The Models folder (docs/pretrained-models.md, "The Models folder"): where the user keeps the
// Hugging Face model folders they downloaded, one sub-folder each ("gpt2", "bert-base-uncased").
// The model menu lists them and lessons that need a model find it there. The studio and the
// command line's lesson decks read the same place.

#include "model/catalog.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace attnlab {

class ModelsFolder {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelsFolder)
public:
    /// Where the folder in use was decided.
    enum class Source {
        ThisRun,     ///< --models-dir, or chosen with "Set Models folder…" in this run
        Environment, ///< ATTNLAB_MODELS_DIR
        Settings,    ///< chosen in an earlier run (QSettings "modelsFolder")
        Default,     ///< defaultPath()
    };

    /// The Models folder in use: the one set for this run (--models-dir, or chosen in it), else
    /// the environment variable ATTNLAB_MODELS_DIR, else the one chosen in an earlier run, else
    /// defaultPath(). An absolute, clean path; the folder may not exist yet.
    static QString path();
    static Source source();
    /// The per-user default: the generic data location + "/attention-lab/models"
    /// (~/.local/share/attention-lab/models on Linux).
    static QString defaultPath();
    /// --models-dir: this run uses `dir` (over the environment and the saved choice); not saved.
    static void setForThisRun(const QString& dir);
    /// "Set Models folder…": `dir` from now on, and in later runs (saved in QSettings).
    static void choose(const QString& dir);

    /// Makes the folder when it does not exist yet; false with the reason (translated) when it cannot.
    static bool ensureExists(QString* error);
    /// The model folders in it (model/catalog.h).
    static ModelCatalog scan();
    /// Shows the folder in the desktop's file manager (made first when missing); false with the
    /// reason when it cannot.
    static bool reveal(QString* error);

    /// A menu line for a model folder: "gpt2 — GPT-2, 12 layers × 12 heads".
    static QString describe(const ModelFolderInfo& model);
    /// What to put where when the folder has no model, one line each: that it has none, then
    /// (after the menu's links to the hub: "Download gpt2 from …") the sub-folders and their files.
    static QStringList downloadHint();
    /// "vocab.json, merges.txt" and friends: the files a family's folder needs, as a list.
    static QString filesOf(PretrainedFamily family);
};

} // namespace attnlab
