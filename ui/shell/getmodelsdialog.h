#pragma once
// File ▸ Models ▸ Get models… (docs/pretrained-models.md, "Getting a model"): the recommended
// models (hub/catalogue.h) with their download size, licence, what they are good for, the lessons
// that use them and whether they are in the Models folder already; "Another model…" for any
// owner/name and revision; where from (the endpoint, HF_ENDPOINT winning) and an access token for
// gated models; then Download, with a progress bar for the file and for the whole (bytes, rate,
// time left), Cancel, and the outcome — or why not — in one sentence. The downloads run in
// ModelDownloads (session/modeldownloads.h): closing the dialog leaves them running, and the
// studio stays usable meanwhile.

#include <QDialog>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace attnlab {

struct DownloadProgress;
struct DownloadResult;

class GetModelsDialog : public QDialog {
    Q_OBJECT
public:
    explicit GetModelsDialog(QWidget* parent = nullptr);

    /// Selects the row of the recommended model `name` ("gpt2").
    void select(const QString& name);
    /// Reads the Models folder again: which models are there, which partly downloaded.
    void refresh();

    QTreeWidget* list() const { return m_list; }
    QLineEdit* repoField() const { return m_repo; }
    QLineEdit* revisionField() const { return m_revision; }
    QLineEdit* endpointField() const { return m_endpoint; }
    QLineEdit* tokenField() const { return m_token; }
    QPushButton* downloadButton() const { return m_download; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* fileBar() const { return m_fileBar; }
    QProgressBar* overallBar() const { return m_overallBar; }
    /// The last outcome or error (one sentence), or what is being downloaded.
    QLabel* statusLabel() const { return m_status; }

    /// Starts the selected download (the button's click); false with the reason shown when the
    /// name, revision or endpoint typed is not one.
    bool startDownload();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillList();
    void showProgress(const QString& name, const DownloadProgress& progress);
    void showFinished(const QString& name, const DownloadResult& result);
    void updateButtons();
    void showStatus(const QString& text, bool error);
    /// The folder name of the selected row ("" for another model not typed yet).
    QString selectedName() const;

    QLabel* m_intro;
    QTreeWidget* m_list;
    QLabel* m_details;
    QLabel* m_repoLabel;
    QLineEdit* m_repo;
    QLabel* m_revisionLabel;
    QLineEdit* m_revision;
    QLabel* m_endpointLabel;
    QLineEdit* m_endpoint;
    QLabel* m_tokenLabel;
    QLineEdit* m_token;
    QLabel* m_fileText;
    QProgressBar* m_fileBar;
    QLabel* m_overallText;
    QProgressBar* m_overallBar;
    QLabel* m_status;
    QPushButton* m_download;
    QPushButton* m_cancel;
    QPushButton* m_close;
};

} // namespace attnlab
