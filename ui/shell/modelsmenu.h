#pragma once
// File ▸ Models: the model folders of the Models folder (session/modelsfolder.h), read again
// each time the menu opens: "gpt2 — GPT-2, 12 layers × 12 heads". Choosing one opens it as File ▸
// Open model folder does (FileActions::importModel, errors reported the same way). Below them:
// where the folder is (its address opens it), "Open the Models folder" and "Set Models folder…".
// An empty folder says which models to download, as entries that open their pages on the hub,
// and which files they need. "Get models…" opens the dialog that downloads them
// (shell/getmodelsdialog.h).

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace attnlab {

class FileActions;
class GetModelsDialog;
class Session;

class ModelsMenu : public QObject {
    Q_OBJECT
public:
    ModelsMenu(Session* session, FileActions* files, QWidget* window);

    /// Puts the "Models" submenu into `file` before `before` (null: at the end); it is filled
    /// each time it opens.
    QMenu* insertInto(QMenu* file, QAction* before);
    /// Fills `menu` from the Models folder as it is now.
    void fill(QMenu* menu);
    /// Makes `dir` the Models folder (saved for later runs); false with the reason reported
    /// when it is not a folder that exists or can be made.
    bool choose(const QString& dir);
    /// Asks for the folder, starting at the current one.
    void chooseDialog();
    /// File ▸ Models ▸ Get models…: shows the download dialog (one, kept while the window lives).
    GetModelsDialog* getModels();

signals:
    /// A message for the status line (FileActions forwards it).
    void statusReported(const QString& message, bool isError);

private:
    void reveal();

    Session* m_session;
    FileActions* m_files;
    QWidget* m_window;
    QPointer<GetModelsDialog> m_dialog;
};

} // namespace attnlab
