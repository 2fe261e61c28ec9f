#pragma once
// Help ▸ About Attention Lab: what the program is in one line, its version (CMake's project
// version), the versions of Qt, Eigen and QCustomPlot it runs with, and the licences.

#include <QDialog>

class QLabel;

namespace attnlab {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    /// The version CMake's project() gives ("0.1.0").
    static QString version();
    /// The dialog's text (rich text).
    QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QLabel* m_text;
};

} // namespace attnlab
