#pragma once
// A form that scrolls up and down inside a dock but never sideways: the scroll area is always as
// wide as the form needs, also after the form grows a row with a wider label (an attention
// kind's options), so no field is cut off at the dock's edge.

#include <QScrollArea>

namespace attnlab {

class FormScrollArea : public QScrollArea {
    Q_OBJECT
public:
    /// Takes `form` as its widget.
    explicit FormScrollArea(QWidget* form, QWidget* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitWidth();
};

} // namespace attnlab
