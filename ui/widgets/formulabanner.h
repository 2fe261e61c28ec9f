#pragma once
// The formula banner: what the current stage computes (A = softmax(QKᵀ/√d_k + M)), the
// shapes of its operands, and one sentence on why.

#include <QWidget>

class QLabel;

namespace attnlab {

class Session;

class FormulaBanner : public QWidget {
    Q_OBJECT
public:
    explicit FormulaBanner(Session* session, QWidget* parent = nullptr);

    QString formulaText() const;
    QString shapesText() const;
    /// The label with the formula (its place on screen is checked at small screen sizes).
    QLabel* formulaLabel() const { return m_formula; }

protected:
    /// A language change writes the step's explanation again; a font change (presenter mode
    /// on or off) sizes the formula again.
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void applyFonts();

    Session* m_session;
    QLabel* m_step;
    QLabel* m_formula;
    QLabel* m_shapes;
    QLabel* m_explanation;
};

} // namespace attnlab
