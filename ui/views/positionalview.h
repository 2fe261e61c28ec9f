#pragma once
// The positional encoding, three ways: the table P itself (positions × dimensions), a few of its
// columns as waves across positions (fast sin/cos pairs for small i, slow ones for large i), and
// the similarity P·Pᵀ of every position with every other (nearby positions are alike). A combo
// box switches sinusoidal / learned / none through the Session.
//
// The plots show P = max(n, 50) positions so the waves are visible even for a short sentence;
// the sentence's own positions are the first n rows (marked by a dashed line).

#include <Eigen/Core>

#include "views/sessionview.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <vector>

class QComboBox;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace attnlab {

class HeatmapView;
class Session;

class PositionalEncodingView : public SessionView {
    Q_OBJECT
public:
    /// At least this many positions are shown, however short the sentence.
    static constexpr int kMinPositions = 50;
    /// At most this many curves (one colour each) in the wave plot.
    static constexpr int kMaxCurves = 8;

    explicit PositionalEncodingView(Session* session, QWidget* parent = nullptr);

    /// The P × d table (rows = positions 0.., columns = dimensions d0..).
    HeatmapView* matrixView() const { return m_matrix; }
    /// P·Pᵀ (positions × positions).
    HeatmapView* similarityView() const { return m_similarity; }
    /// One QCPGraph per chosen dimension, x = position, y = PE value.
    QCustomPlot* curvesPlot() const { return m_curves; }
    /// sinusoidal / learned / none; item data is the config name ("sinusoidal", ...).
    QComboBox* kindCombo() const { return m_kind; }
    /// The chosen dimensions, typed as "0, 1, 8, 16".
    QLineEdit* dimensionsEdit() const { return m_dimsEdit; }
    /// Inline message about the dimensions box (empty when its text is good).
    QLabel* messageLabel() const { return m_message; }
    /// What is shown: how many positions, which rows are the sentence, what the encoding means.
    QLabel* captionLabel() const { return m_caption; }
    /// The dimensions the curves show (after the last good input).
    const std::vector<int>& dimensions() const { return m_dims; }
    /// How many positions the plots show: max(tokens, kMinPositions).
    int positionCount() const { return static_cast<int>(m_table.rows()); }

private:
    void setUpControls(QVBoxLayout* root);
    void setUpCurvesPlot();
    void refresh() override;
    void retranslate() override;
    bool drawTables(int positions);
    void followDimensions(int oldDModel);
    void writeCaption(int positions);
    void followConfig();
    void applyKind();
    void parseDimensions();
    void drawCurves();
    void decoratePlots();
    QString legendName(int dim) const;
    std::vector<int> defaultDimensions() const;
    void applyFonts() override;

    QComboBox* m_kind;
    QLabel* m_kindLabel = nullptr;
    QLabel* m_dimsLabel = nullptr;
    QCPTextElement* m_curvesTitle = nullptr;
    QLineEdit* m_dimsEdit;
    QLabel* m_message;
    QLabel* m_caption;
    HeatmapView* m_matrix;
    QCustomPlot* m_curves;
    HeatmapView* m_similarity;

    // Copies of what is drawn.
    Eigen::MatrixXf m_table;      ///< P × d from Session::positionalTable
    Eigen::MatrixXf m_sim;        ///< P·Pᵀ
    std::vector<int> m_dims;      ///< the dimensions the curves show
    int m_tokens = 0;             ///< n: the sentence's own rows are 0..n-1
    int m_dModel = 0;
    bool m_allZero = false;       ///< P = 0 (no positional encoding)
    QString m_defaultDimsText;    ///< what the box held before the user typed in it
    // The dashed sentence markers and the P = 0 notes: HeatmapView clears items when it redraws, so they are added
    // again (before the next replot) whenever these become null.
    QPointer<QObject> m_matrixMarker;
    QPointer<QObject> m_similarityMarker;
    QPointer<QObject> m_matrixNote;     ///< "P = 0" on the plots when there is no encoding
    QPointer<QObject> m_similarityNote;
};

} // namespace attnlab
