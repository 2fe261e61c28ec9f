#pragma once
// The Training tab (issue 15 §3): train a small encoder–decoder inside the studio and watch its
// attention form. The teacher picks a task (reverse, copy, sort, or a file of source<TAB>target
// lines), a model size (the classroom and standard presets, or custom layers, d_model, heads,
// d_ff), steps, batch and peak learning rate, and presses Start; Pause and Stop act between
// steps. While it trains (training/trainingrun.h, a thread of its own): the training and
// held-out loss, the held-out exact match and the learning rate against the step; the attention
// weights of a fixed held-out probe pair in a chosen block, layer and head (cross-attention of
// the last decoder layer at first), redrawn a few times a second; and a strip of snapshots
// (step 0, 50, 100, …) of the same weights. "Use this model" puts the model into the studio (it
// is saved under the application's data folder, so that a session can refer to it) and opens the
// Stage tab on the probe; "Save model as…" writes it in the model format.

#include "train/trainer.h"
#include "training/trainingrun.h"
#include "views/sessionview.h"

#include <memory>

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTimer;

namespace attnlab {

class HeatmapView;
class SnapshotStrip;

class TrainingView : public SessionView {
    Q_OBJECT
public:
    explicit TrainingView(Session* session, QWidget* parent = nullptr);
    ~TrainingView() override;

    QComboBox* taskBox() const { return m_task; }
    QComboBox* presetBox() const { return m_preset; }
    QSpinBox* stepsBox() const { return m_steps; }
    QSpinBox* batchBox() const { return m_batch; }
    QDoubleSpinBox* rateBox() const { return m_rate; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* useButton() const { return m_use; }
    QPushButton* saveButton() const { return m_save; }
    QLabel* statusLabel() const { return m_status; }
    QCustomPlot* lossPlot() const { return m_lossPlot; }
    QCustomPlot* accuracyPlot() const { return m_accuracyPlot; }
    HeatmapView* heatmap() const { return m_heatmap; }
    SnapshotStrip* strip() const { return m_strip; }
    QComboBox* layerBox() const { return m_layer; }
    QComboBox* headBox() const { return m_head; }
    TrainingRun* run() const { return m_run; }

    /// Trains on a teacher's file instead of a built-in task (the task box's "Open file…" asks
    /// for it); false, with the reason in the status line, for a file that cannot be read.
    bool setTaskFile(const QString& path);
    /// Starts training with the controls' settings (Start); a bad setting or file is said in the
    /// status line and nothing starts.
    bool start();
    /// Pause / Resume, and Stop: between two steps.
    void togglePause();
    void stop();
    /// Puts the trained model into the studio; false (with the reason in the status line) when
    /// there is none yet or it cannot be saved.
    bool useModel();
    /// Writes the trained model (docs/model-format.md); false with the reason in the status line.
    bool saveModel(const QString& path);
    /// Draws what the run holds now (the poll timer does it while training).
    void showFrame();
    /// For a lesson's slide: when nothing was trained yet, trains the classroom preset on
    /// reversal (a few seconds) and waits for it, so that the slide shows curves and snapshots.
    bool prepareForSlide(int timeoutMs = 120000);

    FigureName figureName() const override { return {QStringLiteral("training"), std::nullopt, Block::None}; }

private:
    bool usable(const Seq2SeqModel* model);
    void retranslate() override;
    void applyFonts() override;
    void buildControls();
    void buildViews(class QVBoxLayout* root);
    void presetChanged();
    void taskChanged();
    void fillChoices(const ModelSpec& spec);
    void updateButtons();
    void drawCurves(const TrainingRun::Frame& f);
    void drawAttention(const TrainingRun::Frame& f);
    ModelSpec chosenSpec() const;

    QLabel* m_taskLabel;
    QComboBox* m_task;
    QLabel* m_presetLabel;
    QComboBox* m_preset;
    QWidget* m_custom;
    QSpinBox* m_layers;
    QSpinBox* m_dModel;
    QSpinBox* m_heads;
    QSpinBox* m_dFF;
    QLabel* m_stepsLabel;
    QSpinBox* m_steps;
    QLabel* m_batchLabel;
    QSpinBox* m_batch;
    QLabel* m_rateLabel;
    QDoubleSpinBox* m_rate;
    QPushButton* m_start;
    QPushButton* m_pause;
    QPushButton* m_stop;
    QPushButton* m_use;
    QPushButton* m_save;
    QLabel* m_status;
    QCustomPlot* m_lossPlot;
    QCustomPlot* m_accuracyPlot;
    QLabel* m_showLabel;
    QComboBox* m_block;
    QComboBox* m_layer;
    QComboBox* m_head;
    HeatmapView* m_heatmap;
    QLabel* m_placeholder; ///< in the heatmap's place until the first probe
    SnapshotStrip* m_strip;
    QScrollArea* m_stripScroll;
    QTimer* m_poll;
    TrainingRun* m_run;
    QString m_file; ///< the teacher's file, when the task is one
};

} // namespace attnlab
