<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>attnlab::CellInspector</name>
    <message>
        <source>Click a cell of the heatmap to see how it was computed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1 (row %2) · key %3 (column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q_%1[d]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k_%1[d]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q_%1[d]·k_%2[d]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ = q_%1·k_%2  (recomputed here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S%1 from the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>÷ ↭_k = ÷ %1  → S′%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scaling off (× 1)  → S′%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ M%1  (key hidden from this query)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ M%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= S″%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax: exp(−∞) = 0  → A%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax over row %1  → A%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S%1 = q_%2·k_%3 = %4  (recomputed here from Q and K: %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S′ = S ÷ ↭_k = %1 ÷ %2 = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaling is off: S′ = S = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1 is hidden from query %2: S″ = S′ + (−∞) = −∞</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A%1 = 0: exp(−∞) is exactly 0, so this key gets no attention.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S″ = S′ + M = %1 + 0 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A%1 = %2 after the softmax over row %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1 (row %2) · all %3 keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S″[%1, j]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exp(S″ − max)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A[%1, j]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 · row %2 of A = softmax of row %2 of S″</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scores were divided by ↭_k = %1 before the softmax.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaling is off: the softmax sees the raw dot products.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 keys are masked (−∞): exp(−∞) = 0, so their weight is exactly 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every key is masked: the softmax is undefined, so every weight is 0 (Σ = 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A[%1, j] = exp(S″[%1, j] − %2) / %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest weight: key %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check: Σ_j A[%1, j] = %2 ✓</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check: Σ_j A[%1, j] = %2 (should be 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before softmax: S″[%1, j]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After softmax: A[%1, j]  (0 … 1, Σ = %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1 (row %2) · dimension %3 (column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key j</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>V[j, %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A·V</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ_j A[%1, j]·V[j, %2]  (recomputed here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Z%1 from the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Z%1 = Σ_j A[%2, j]·V[j, %3] = %4  (recomputed here: %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1 of every key&apos;s value, weighted by how much %2 attends to that key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest term: key %1 (A = %2, contributes %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys have weight 0 (masked or vanishing) and contribute nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (row %3) · %4 (column %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X[%1, d]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[%2, d]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X·W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… %1 smaller terms, summed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ bias b_%1[%2]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ + b  (recomputed here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 from the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 = Σ_d X[%3, d]·%4[%5, d] + b_%6[%5] = %7  (recomputed here: %8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row %1 of %2 is row h୽_k + c = %3·%4 + %5 (row %6 of in_proj_weight).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 largest of %2 terms are listed; the others add up to %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1 (position %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token %1 of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token %1 (row %2) · %3 (column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 = %3: row %4, column %5 of %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X%1 = E·s%1 + P%1 = %2 + %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column %1 is column %2 of head %3&apos;s output Z.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::Exporter</name>
    <message>
        <source>%1 — head %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::FormulaBanner</name>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · head %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::MainWindow</name>
    <message>
        <source>Attention Lab sessions (*.attnlab.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>safetensors weights (*.safetensors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sentence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a sentence in any language, e.g. 狗咬了人 or &lt;sos&gt; Je vais bien</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How was this computed?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mask files (*.mask *.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;mask…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presenter mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;First stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Last stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next &amp;head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous h&amp;ead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Auto-play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the weights: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights from %1: d_model %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the weights: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the weights to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last session could not be restored (%1); starting fresh.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::MultiHeadView</name>
    <message>
        <source>Shared colour scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give every head the same colour range (the largest |value| over all heads), so colours compare across heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>× W_Oᵀ + b_O
→</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>O = C·W_Oᵀ + b_O: the output projection mixes the heads&apos; features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to focus head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for each of the %2 heads (d_k = %3). Click a head to focus it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concatenation C = [Z₁ | … | Z%1]: %2 × %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output O = C·W_Oᵀ + b_O: %1 × %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each head&apos;s output Z (%1 × %2) is placed side by side, in head order: C is %1 × %3. The output projection W_O then mixes the heads&apos; features into O. Click a block to focus its head.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::PositionalEncodingView</name>
    <message>
        <source>Encoding:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sinusoidal (sin/cos)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learned (seeded table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How positions are added to the token embeddings: X = E·√d_model + P</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Curves for dimensions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension numbers separated by commas, e.g. 0, 1, 8, 16 (at most %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns of P across positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional encoding P: %1 positions × %2 dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similarity P·Pᵀ of every position with every other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing %1 positions (0–%2) × %3 dimensions. The sentence&apos;s %4 tokens are the first %4 rows (above the dashed line); the rest show how the pattern continues.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the sentence&apos;s %1 positions × %2 dimensions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each pair of columns is a sine and a cosine: low dimensions oscillate fast, high ones slowly, so every position gets its own code and nearby positions get similar codes (the dark band along the diagonal of P·Pᵀ).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A learned table starts as seeded random numbers, as BERT&apos;s does before training: it has no notion of distance yet, so nearby positions are no more alike than distant ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No positional encoding: P is all zeros, so X = E·√d_model and attention cannot tell word order — reordering the words only reorders the rows of every result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No positional encoding: P is all zeros, so X = E and attention cannot tell word order — reordering the words only reorders the rows of every result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P = 0 everywhere:
no position information</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P·Pᵀ = 0:
every position looks the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim %1 (learned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim %1 (P = 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim %1 (%2, i=%3), period %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type at least one dimension number (0 to %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a dimension: type numbers from 0 to %2 separated by commas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no dimension %1: d_model is %2, so dimensions run from 0 to %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the first %1 dimensions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sentence (%1 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::Session</name>
    <message>
        <source>Mask file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open session %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an Attention Lab session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsupported version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>custom_mask is not square</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::SettingsPanel</name>
    <message>
        <source>Scale embeddings by ↭_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Divide scores by ↭_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open mask file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of every token vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only divisors of d_model are offered: every head gets d_model / heads dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed of the embedding table, the learned positions and the seeded weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal (look-ahead)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>causal + padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>custom (from a file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Append &lt;pad&gt; tokens up to this length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pad to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seeded (Xavier)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>identity (W = I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights from %1 (d_model %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_k = %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::StageNavigator</name>
    <message numerus="yes">
        <source>%n s per step</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous stage (←, PageUp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next stage (→, Space, PageDown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::StageView</name>
    <message>
        <source>Same colour scale for all heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare heads fairly: one colour range for every head of this stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 × %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::Stages</name>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input X = E + P</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queries Q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values V</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores Q·Kᵀ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaled ÷ ↭_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mask M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Masked scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax → weights A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head output A·V</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concatenate heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output ·W_O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sentence → tokens t₀ … tₙ₋₁</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E = Embed(tokens),  scaled by ↭_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E = Embed(tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X = E·↭_model + P</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X = E + P</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Q_h = X·W_Q,h + b_Q,h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K_h = X·W_K,h + b_K,h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>V_h = X·W_V,h + b_V,h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S_h = Q_h·K_hᵀ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S′_h = Q_h·K_hᵀ / ↭_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S′_h = Q_h·K_hᵀ   (scaling switched off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>M_ij = −∞ if key j is hidden from query i, else 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S″_h = Q_h·K_hᵀ / ↭_k + M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K_hᵀ / ↭_k + M)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K_hᵀ + M)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Z_h = A_h·V_h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C = [Z_1 | Z_2 | … | Z_h]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>O = C·W_O + b_O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n = %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>,  rows = queries, columns = keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 heads × </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sentence is cut into tokens: words and punctuation, one token per Chinese character.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each token looks up its own vector in an embedding table: the same word always gets the same vector.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention itself ignores order, so each position gets a pattern of sines and cosines of different frequencies.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The input of attention is the embedding plus the position: what the word is and where it stands.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A query says what a token is looking for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key says what a token offers, to be matched against the queries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A value is what a token hands over when it is attended to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every query is compared with every key by a dot product: large means a good match.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dot products grow with d_k; dividing by ↭_k keeps their spread near 1 so the softmax does not saturate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mask hides keys a query may not see: future tokens (causal) or &lt;pad&gt; tokens (padding). −∞ becomes exactly 0 after the softmax.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding the mask turns hidden scores into −∞.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax turns each row of scores into probabilities: every row sums to 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each token&apos;s output is the weighted sum of the values, with the attention weights as weights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The heads&apos; outputs are placed side by side: each head contributes d_k columns.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A last projection W_O mixes the heads back into one d_model-wide vector per token.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attnlab::TokensView</name>
    <message>
        <source>special token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CJK character</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>word</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UTF-8 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n token(s). Each becomes one row of every matrix that follows.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
