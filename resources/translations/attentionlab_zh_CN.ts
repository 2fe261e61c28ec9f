<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>attnlab::ErrorBanner</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The last result is still shown.</source>
        <translation>仍显示上一次的结果。</translation>
    </message>
</context>
<context>
    <name>attnlab::Autosave</name>
    <message>
        <source>there is no folder for application data</source>
        <translation>系统没有存放应用数据的文件夹</translation>
    </message>
    <message>
        <source>autosave has stopped</source>
        <translation>自动保存已停止</translation>
    </message>
</context>
<context>
    <name>attnlab::CellInspector</name>
    <message>
        <source>S%1 = (a) + (b) + (c) + (d) = %2 + %3 = %4  ((a) = q_%5·k_%6)</source>
        <translation>S%1 = (a) + (b) + (c) + (d) = %2 + %3 = %4  （(a) = q_%5·k_%6）</translation>
    </message>
    <message>
        <source>+ (b) + (c) + (d)%1  (Transformer-XL: distance and bias terms)</source>
        <translation>+ (b) + (c) + (d)%1  （Transformer-XL：距离项和偏置项）</translation>
    </message>
    <message>
        <source>V[j, %1] + aⱽ</source>
        <translation>V[j, %1] + aⱽ</translation>
    </message>
    <message>
        <source>S%1 = q_%2·k_%3 + P = %4 + %5 = %6</source>
        <translation>S%1 = q_%2·k_%3 + P = %4 + %5 = %6</translation>
    </message>
    <message>
        <source>+ P%1  (relative: q_%2·aᴷ of the distance)</source>
        <translation>+ P%1  （相对位置：q_%2 与该距离的 aᴷ 的点积）</translation>
    </message>
    <message>
        <source>Click a cell of the heatmap to see how it was computed</source>
        <translation>点击热力图中的一个单元格，查看它是怎样算出来的</translation>
    </message>
    <message>
        <source>query %1 (row %2) · key %3 (column %4)</source>
        <translation>查询 %1（第 %2 行）· 键 %3（第 %4 列）</translation>
    </message>
    <message>
        <source>dim</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>q_%1[d]</source>
        <translation>q_%1[d]</translation>
    </message>
    <message>
        <source>k_%1[d]</source>
        <translation>k_%1[d]</translation>
    </message>
    <message>
        <source>q_%1[d]·k_%2[d]</source>
        <translation>q_%1[d]·k_%2[d]</translation>
    </message>
    <message>
        <source>Σ = q_%1·k_%2  (recomputed here)</source>
        <translation>Σ = q_%1·k_%2（此处重新计算）</translation>
    </message>
    <message>
        <source>S%1 from the trace</source>
        <translation>计算记录中的 S%1</translation>
    </message>
    <message>
        <source>scaling off (× 1)  → S′%1</source>
        <translation>未缩放（× 1）  → S′%1</translation>
    </message>
    <message>
        <source>+ M%1  (key hidden from this query)</source>
        <translation>+ M%1（该键对此查询不可见）</translation>
    </message>
    <message>
        <source>+ M%1</source>
        <translation>+ M%1</translation>
    </message>
    <message>
        <source>= S″%1</source>
        <translation>= S″%1</translation>
    </message>
    <message>
        <source>softmax: exp(−∞) = 0  → A%1</source>
        <translation>softmax：exp(−∞) = 0  → A%1</translation>
    </message>
    <message>
        <source>softmax over row %1  → A%2</source>
        <translation>对第 %1 行做 softmax  → A%2</translation>
    </message>
    <message>
        <source>Head %1 · %2</source>
        <translation>头 %1 · %2</translation>
    </message>
    <message>
        <source>S%1 = q_%2·k_%3 = %4  (recomputed here from Q and K: %5)</source>
        <translation>S%1 = q_%2·k_%3 = %4（此处由 Q 和 K 重新计算：%5）</translation>
    </message>
    <message>
        <source>Scaling is off: S′ = S = %1</source>
        <translation>缩放已关闭：S′ = S = %1</translation>
    </message>
    <message>
        <source>Key %1 is hidden from query %2: S″ = S′ + (−∞) = −∞</source>
        <translation>键 %1 对查询 %2 不可见：S″ = S′ + (−∞) = −∞</translation>
    </message>
    <message>
        <source>A%1 = 0: exp(−∞) is exactly 0, so this key gets no attention.</source>
        <translation>A%1 = 0：exp(−∞) 恰好为 0，所以这个键得不到任何注意力。</translation>
    </message>
    <message>
        <source>S″ = S′ + M = %1 + 0 = %2</source>
        <translation>S″ = S′ + M = %1 + 0 = %2</translation>
    </message>
    <message>
        <source>A%1 = %2 after the softmax over row %3</source>
        <translation>对第 %3 行做 softmax 后，A%1 = %2</translation>
    </message>
    <message>
        <source>query %1 (row %2) · all %3 keys</source>
        <translation>查询 %1（第 %2 行）· 全部 %3 个键</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>S″[%1, j]</source>
        <translation>S″[%1, j]</translation>
    </message>
    <message>
        <source>exp(S″ − max)</source>
        <translation>exp(S″ − max)</translation>
    </message>
    <message>
        <source>A[%1, j]</source>
        <translation>A[%1, j]</translation>
    </message>
    <message>
        <source>Σ</source>
        <translation>Σ</translation>
    </message>
    <message>
        <source>Head %1 · row %2 of A = softmax of row %2 of S″</source>
        <translation>头 %1 · A 的第 %2 行 = 对 S″ 的第 %2 行做 softmax</translation>
    </message>
    <message>
        <source>Scaling is off: the softmax sees the raw dot products.</source>
        <translation>缩放已关闭：softmax 的输入是未经缩放的点积。</translation>
    </message>
    <message>
        <source>%1 of %2 keys are masked (−∞): exp(−∞) = 0, so their weight is exactly 0.</source>
        <translation>%2 个键中有 %1 个被掩码遮住（−∞）：exp(−∞) = 0，所以它们的权重恰好为 0。</translation>
    </message>
    <message>
        <source>Every key is masked: the softmax is undefined, so every weight is 0 (Σ = 0).</source>
        <translation>所有键都被掩码遮住：softmax 没有定义，因此每个权重都为 0（Σ = 0）。</translation>
    </message>
    <message>
        <source>A[%1, j] = exp(S″[%1, j] − %2) / %3</source>
        <translation>A[%1, j] = exp(S″[%1, j] − %2) / %3</translation>
    </message>
    <message>
        <source>Largest weight: key %1, %2</source>
        <translation>最大权重：键 %1，%2</translation>
    </message>
    <message>
        <source>Check: Σ_j A[%1, j] = %2 ✓</source>
        <translation>验算：Σ_j A[%1, j] = %2 ✓</translation>
    </message>
    <message>
        <source>Check: Σ_j A[%1, j] = %2 (should be 1)</source>
        <translation>验算：Σ_j A[%1, j] = %2（应为 1）</translation>
    </message>
    <message>
        <source>Before softmax: S″[%1, j]</source>
        <translation>softmax 之前：S″[%1, j]</translation>
    </message>
    <message>
        <source>After softmax: A[%1, j]  (0 … 1, Σ = %2)</source>
        <translation>softmax 之后：A[%1, j]（0 … 1，Σ = %2）</translation>
    </message>
    <message>
        <source>query %1 (row %2) · dimension %3 (column %4)</source>
        <translation>查询 %1（第 %2 行）· 维度 %3（第 %4 列）</translation>
    </message>
    <message>
        <source>key j</source>
        <translation>键 j</translation>
    </message>
    <message>
        <source>V[j, %1]</source>
        <translation>V[j, %1]</translation>
    </message>
    <message>
        <source>A·V</source>
        <translation>A·V</translation>
    </message>
    <message>
        <source>Σ_j A[%1, j]·V[j, %2]  (recomputed here)</source>
        <translation>Σ_j A[%1, j]·V[j, %2]（此处重新计算）</translation>
    </message>
    <message>
        <source>Z%1 from the trace</source>
        <translation>计算记录中的 Z%1</translation>
    </message>
    <message>
        <source>Z%1 = Σ_j A[%2, j]·V[j, %3] = %4  (recomputed here: %5)</source>
        <translation>Z%1 = Σ_j A[%2, j]·V[j, %3] = %4（此处重新计算：%5）</translation>
    </message>
    <message>
        <source>Dimension %1 of every key&apos;s value, weighted by how much %2 attends to that key.</source>
        <translation>每个键的值在维度 %1 上的分量，按 %2 对该键的关注程度加权。</translation>
    </message>
    <message>
        <source>Largest term: key %1 (A = %2, contributes %3)</source>
        <translation>最大的一项：键 %1（A = %2，贡献 %3）</translation>
    </message>
    <message>
        <source>%1 keys have weight 0 (masked or vanishing) and contribute nothing.</source>
        <translation>有 %1 个键的权重为 0（被掩码遮住或小到可以忽略），对结果没有贡献。</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>%1 of %2 (row %3) · %4 (column %5)</source>
        <translation>%2 的%1（第 %3 行）· %4（第 %5 列）</translation>
    </message>
    <message>
        <source>dim d</source>
        <translation>维度 d</translation>
    </message>
    <message>
        <source>X[%1, d]</source>
        <translation>X[%1, d]</translation>
    </message>
    <message>
        <source>%1[%2, d]</source>
        <translation>%1[%2, d]</translation>
    </message>
    <message>
        <source>X·W</source>
        <translation>X·W</translation>
    </message>
    <message>
        <source>… %1 smaller terms, summed</source>
        <translation>… 其余 %1 个较小项之和</translation>
    </message>
    <message>
        <source>+ bias b_%1[%2]</source>
        <translation>+ 偏置 b_%1[%2]</translation>
    </message>
    <message>
        <source>Σ + b  (recomputed here)</source>
        <translation>Σ + b（此处重新计算）</translation>
    </message>
    <message>
        <source>%1%2 from the trace</source>
        <translation>计算记录中的 %1%2</translation>
    </message>
    <message>
        <source>%1%2 = Σ_d X[%3, d]·%4[%5, d] + b_%6[%5] = %7  (recomputed here: %8)</source>
        <translation>%1%2 = Σ_d X[%3, d]·%4[%5, d] + b_%6[%5] = %7（此处重新计算：%8）</translation>
    </message>
    <message>
        <source>The %1 largest of %2 terms are listed; the others add up to %3.</source>
        <translation>共 %2 项，只列出最大的 %1 项；其余各项之和为 %3。</translation>
    </message>
    <message>
        <source>token %1 (position %2)</source>
        <translation>词元 %1（位置 %2）</translation>
    </message>
    <message>
        <source>Token %1 of %2.</source>
        <translation>词元 %1（共 %2 个）。</translation>
    </message>
    <message>
        <source>token %1 (row %2) · %3 (column %4)</source>
        <translation>词元 %1（第 %2 行）· %3（第 %4 列）</translation>
    </message>
    <message>
        <source>%1%2 = %3: row %4, column %5 of %6</source>
        <translation>%1%2 = %3：%6 中的行 %4、列 %5</translation>
    </message>
    <message>
        <source>Head %1 · </source>
        <translation>头 %1 · </translation>
    </message>
    <message>
        <source>X%1 = E·s%1 + P%1 = %2 + %3</source>
        <translation>X%1 = E·s%1 + P%1 = %2 + %3</translation>
    </message>
    <message>
        <source>Column %1 is column %2 of head %3&apos;s output Z.</source>
        <translation>第 %1 列是头 %3 的输出 Z 的第 %2 列。</translation>
    </message>
    <message>
        <source>÷ √d_k = ÷ %1  → S′%2</source>
        <translation>÷ √d_k = ÷ %1  → S′%2</translation>
    </message>
    <message>
        <source>S′ = S ÷ √d_k = %1 ÷ %2 = %3</source>
        <translation>S′ = S ÷ √d_k = %1 ÷ %2 = %3</translation>
    </message>
    <message>
        <source>The scores were divided by √d_k = %1 before the softmax.</source>
        <translation>在 softmax 之前，分数已除以 √d_k = %1。</translation>
    </message>
    <message>
        <source>Row %1 of %2 is row (h − 1)·d_k + c = (%3 − 1)·%4 + %5 (row %6 of PyTorch&apos;s in_proj_weight).</source>
        <translation>%2 的第 %1 行就是第 (h − 1)·d_k + c = (%3 − 1)·%4 + %5 行（PyTorch 的 in_proj_weight 的第 %6 行）。</translation>
    </message>
    <message>
        <source>+ B%1  (ALiBi: −m_h·|i − j|)</source>
        <translation>+ B%1  （ALiBi：−m_h·|i − j|）</translation>
    </message>
    <message>
        <source>S″ = S′ + B + M = %1 + %2 + 0 = %3</source>
        <translation>S″ = S′ + B + M = %1 + %2 + 0 = %3</translation>
    </message>
    <message>
        <source>÷ √query_pre_attn_scalar = ÷ %1  → S′%2</source>
        <translation>÷ √query_pre_attn_scalar = ÷ %1  → S′%2</translation>
    </message>
    <message>
        <source>S′ = S ÷ √query_pre_attn_scalar = %1 ÷ %2 = %3</source>
        <translation>S′ = S ÷ √query_pre_attn_scalar = %1 ÷ %2 = %3</translation>
    </message>
    <message>
        <source>The scores were divided by √query_pre_attn_scalar = %1 before the softmax.</source>
        <translation>在 softmax 之前，分数已除以 √query_pre_attn_scalar = %1。</translation>
    </message>
    <message>
        <source>Grouped-query attention: k_%1 is the key of key/value head %2, which query heads %3 share.</source>
        <translation>分组查询注意力：k_%1 是键/值头 %2 的键，查询头 %3 共用这个键/值头。</translation>
    </message>
</context>
<context>
    <name>attnlab::ComputingIndicator</name>
    <message>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>The views show the last result until the new one is computed.</source>
        <translation>新结果算好之前，视图显示上一次的结果。</translation>
    </message>
</context>
<context>
    <name>attnlab::Deck</name>
    <message>
        <source>Step %1 / %2</source>
        <translation>步骤 %1 / %2</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>cannot create the folder &apos;%1&apos;</source>
        <translation>无法创建文件夹“%1”</translation>
    </message>
    <message numerus="yes">
        <source>cancelled after %n page(s)</source>
        <translation>
            <numerusform>导出 %n 页后已取消</numerusform>
        </translation>
    </message>
    <message>
        <source>this model has no stage %1 in layer %2 (%3)</source>
        <translation>此模型的第 %2 层（%3）中没有阶段 %1</translation>
    </message>
    <message>
        <source>step %1 (line %2): %3</source>
        <translation>第 %1 步（第 %2 行）：%3</translation>
    </message>
    <message>
        <source>the explanation is too long for a slide: its end is cut off</source>
        <translation>说明文字太长，一页幻灯片放不下：结尾被截掉了</translation>
    </message>
    <message>
        <source>the picture could not be encoded</source>
        <translation>图片无法编码</translation>
    </message>
    <message>
        <source>B (compare: %1): %2</source>
        <translation>B（compare: %1）：%2</translation>
    </message>
</context>
<context>
    <name>attnlab::DecoderPanel</name>
    <message>
        <source>Step %1 / %2</source>
        <translation>步骤 %1 / %2</translation>
    </message>
    <message>
        <source>%1 → &lt;b&gt;%2&lt;/b&gt; (p = %3)</source>
        <translation>%1 → &lt;b&gt;%2&lt;/b&gt;（p = %3）</translation>
    </message>
    <message>
        <source>Decoder input: %1</source>
        <translation>解码器输入：%1</translation>
    </message>
    <message>
        <source>Decoder:</source>
        <translation>解码器：</translation>
    </message>
    <message>
        <source>Generate (greedy)</source>
        <translation>贪心生成</translation>
    </message>
    <message>
        <source>Inference: the model writes its own target, one token per step</source>
        <translation>推理：模型自己写出目标序列，每步一个词元</translation>
    </message>
    <message>
        <source>Teacher forcing:</source>
        <translation>教师强制：</translation>
    </message>
    <message>
        <source>Training: the decoder reads the correct target, every position at once</source>
        <translation>训练：解码器读入正确的目标序列，所有位置一次算完</translation>
    </message>
    <message>
        <source>the target sentence</source>
        <translation>目标句子</translation>
    </message>
    <message>
        <source>Previous generation step</source>
        <translation>上一个生成步骤</translation>
    </message>
    <message>
        <source>Next generation step: one more token</source>
        <translation>下一个生成步骤：再多生成一个词元</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Watch generation add one token at a time</source>
        <translation>观看生成过程：每次添加一个词元</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>attnlab::Exporter</name>
    <message>
        <source>%1 — segment %2</source>
        <translation>%1 — 第 %2 段</translation>
    </message>
    <message>
        <source>%1 — head %2</source>
        <translation>%1 — 头 %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>attnlab::FeedForwardView</name>
    <message>
        <source>share of the hidden units</source>
        <translation>隐藏单元所占比例</translation>
    </message>
    <message>
        <source>hidden value h</source>
        <translation>隐藏值 h</translation>
    </message>
    <message>
        <source>how many values</source>
        <translation>个数</translation>
    </message>
    <message>
        <source>This block has no feed-forward network (cross-attention&apos;s block has none). Choose a layer&apos;s “FFN hidden” step.</source>
        <translation>这个块没有前馈网络（交叉注意力块中没有）。请选择某一层的“FFN 隐藏层”步骤。</translation>
    </message>
    <message>
        <source>The feed-forward network is part of a Transformer layer, and one attention block has none. Choose a Transformer model in the settings, then a layer&apos;s “FFN hidden” step.</source>
        <translation>前馈网络是 Transformer 层的一部分，单个注意力块中没有。请在设置中选择一个 Transformer 模型，再选择某一层的“FFN 隐藏层”步骤。</translation>
    </message>
    <message>
        <source>Feed-forward network: d_model = %1 → d_ff = %2 → d_model = %1, with %3. Each token goes through the same two linear layers on its own (tokens do not look at each other here): H = %3(X·W₁ᵀ + b₁) widens its vector to %2 features, then H·W₂ᵀ + b₂ brings it back to %1.</source>
        <translation>前馈网络：d_model = %1 → d_ff = %2 → d_model = %1，激活函数为 %3。每个词元各自经过同样的两个线性层（这里词元之间互不查看）：H = %3(X·W₁ᵀ + b₁) 把向量扩展到 %2 个特征，再由 H·W₂ᵀ + b₂ 变回 %1 个。</translation>
    </message>
    <message>
        <source>GELU(x) = x·Φ(x) is smooth: a negative input gives a small negative value (never below about −0.17) rather than exactly 0. Here %1 of all %2 hidden values are negative or zero.</source>
        <translation>GELU(x) = x·Φ(x) 是平滑的：负输入得到一个小的负值（不会低于约 −0.17），而不是恰好为 0。这里全部 %2 个隐藏值中有 %1 为负或零。</translation>
    </message>
    <message>
        <source>ReLU(x) = max(0, x) switches a unit off, to exactly 0, whenever its input is negative. Here %1 of all %2 hidden values are exactly 0.</source>
        <translation>ReLU(x) = max(0, x)：只要输入为负，就把该单元关闭，输出恰好为 0。这里全部 %2 个隐藏值中有 %1 恰好为 0。</translation>
    </message>
    <message>
        <source>%1   (%2 tokens × %3 hidden units)</source>
        <translation>%1   （%2 个词元 × %3 个隐藏单元）</translation>
    </message>
    <message>
        <source>negative or zero (GELU)</source>
        <translation>为负或零（GELU）</translation>
    </message>
    <message>
        <source>exactly 0 (ReLU)</source>
        <translation>恰好为 0（ReLU）</translation>
    </message>
    <message>
        <source>all tokens: %1</source>
        <translation>全部词元：%1</translation>
    </message>
    <message>
        <source>Hidden units negative or zero per token (%1 units each)</source>
        <translation>每个词元中为负或零的隐藏单元（各 %1 个单元）</translation>
    </message>
    <message>
        <source>Hidden units at exactly 0 per token (%1 units each)</source>
        <translation>每个词元中恰好为 0 的隐藏单元（各 %1 个单元）</translation>
    </message>
    <message>
        <source>h ≤ 0 (negative or zero)</source>
        <translation>h ≤ 0（为负或零）</translation>
    </message>
    <message>
        <source>h = 0 (switched off)</source>
        <translation>h = 0（被关闭）</translation>
    </message>
    <message>
        <source>h &gt; 0</source>
        <translation>h &gt; 0</translation>
    </message>
    <message>
        <source>All %1 hidden values (%2 × %3), %4 bins</source>
        <translation>全部 %1 个隐藏值（%2 × %3），%4 个区间</translation>
    </message>
    <message>
        <source>share of the gate&apos;s units</source>
        <translation>门控单元所占比例</translation>
    </message>
    <message>
        <source>gate value %1(g)</source>
        <translation>门控值 %1(g)</translation>
    </message>
    <message>
        <source>Gate: %1</source>
        <translation>门控：%1</translation>
    </message>
    <message>
        <source>Up: %1</source>
        <translation>上投影：%1</translation>
    </message>
    <message>
        <source>Product: %1</source>
        <translation>乘积：%1</translation>
    </message>
    <message>
        <source>GELU_tanh(g) is near 0 for a very negative g (the gate closes) and never below about −0.17, so a negative gate lets a little of U through with its sign flipped. Here %1 of all %2 gate values are negative or zero.</source>
        <translation>g 很负时 GELU_tanh(g) 接近 0（门关上），且从不低于约 −0.17，所以负的门控值会让一小部分 U 反号通过。这里 %2 个门控值中有 %1 为负或零。</translation>
    </message>
    <message>
        <source>SiLU(g) = g·σ(g) is near 0 for a very negative g (the gate closes) and never below about −0.28, so a negative gate lets a little of U through with its sign flipped. Here %1 of all %2 gate values are negative or zero.</source>
        <translation>SiLU(g) = g·σ(g) 在 g 很负时接近 0（门关上），且从不低于约 −0.28，所以负的门控值会让一小部分 U 反号通过。这里 %2 个门控值中有 %1 为负或零。</translation>
    </message>
    <message>
        <source>%1(g) ≤ 0</source>
        <translation>%1(g) ≤ 0</translation>
    </message>
    <message>
        <source>Gate at or below 0 per token (%1 units each)</source>
        <translation>每个词元中门控值不大于 0 的单元（各 %1 个单元）</translation>
    </message>
    <message>
        <source>%1(g) &gt; 0</source>
        <translation>%1(g) &gt; 0</translation>
    </message>
    <message>
        <source>All %1 gate values %2(g) (%3 × %4), %5 bins</source>
        <translation>全部 %1 个门控值 %2(g)（%3 × %4），%5 个区间</translation>
    </message>
    <message>
        <source>Gated feed-forward network (%1): d_model = %2 → two projections of d_ff = %3 → d_model = %2, each token on its own; H = %4(G) ⊙ U, so the gate G decides how much of each feature of U passes.</source>
        <translation>门控前馈网络（%1）：d_model = %2 → 两个 d_ff = %3 的投影 → d_model = %2，每个词元各自独立地通过；H = %4(G) ⊙ U，于是门控 G 决定 U 的每个特征能通过多少。</translation>
    </message>
    <message>
        <source>G and U are computed side by side from the same input; then H·W_downᵀ brings the token back to %1 features.</source>
        <translation>G 与 U 由同一个输入并排算出；随后 H·W_downᵀ 把词元带回 %1 个特征。</translation>
    </message>
</context>
<context>
    <name>attnlab::FileActions</name>
    <message>
        <source>Attention Lab sessions (*.attnlab.json *.json)</source>
        <translation>Attention Lab 会话 (*.attnlab.json *.json)</translation>
    </message>
    <message>
        <source>safetensors weights (*.safetensors)</source>
        <translation>safetensors 权重文件 (*.safetensors)</translation>
    </message>
    <message>
        <source>Models and PyTorch state dicts (*.safetensors)</source>
        <translation>模型与 PyTorch 状态字典 (*.safetensors)</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;weights…</source>
        <translation>打开权重文件(&amp;W)…</translation>
    </message>
    <message>
        <source>Save weights…</source>
        <translation>保存权重文件…</translation>
    </message>
    <message>
        <source>Open &amp;mask…</source>
        <translation>打开掩码文件(&amp;M)…</translation>
    </message>
    <message>
        <source>Open mo&amp;del…</source>
        <translation>打开模型(&amp;D)…</translation>
    </message>
    <message>
        <source>Save model as…</source>
        <translation>模型另存为…</translation>
    </message>
    <message>
        <source>&amp;Export view as image…</source>
        <translation>将视图导出为图片(&amp;E)…</translation>
    </message>
    <message>
        <source>Export matrix as &amp;CSV…</source>
        <translation>将矩阵导出为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Export &amp;all stages…</source>
        <translation>导出所有阶段(&amp;A)…</translation>
    </message>
    <message>
        <source>C&amp;opy image</source>
        <translation>复制图片(&amp;O)</translation>
    </message>
    <message>
        <source>Export &amp;lesson…</source>
        <translation>导出课程(&amp;L)…</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Could not save the session: %1</source>
        <translation>无法保存会话：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Could not open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>Model from %1</source>
        <translation>模型来自 %1</translation>
    </message>
    <message>
        <source>Could not save the model: %1</source>
        <translation>无法保存模型：%1</translation>
    </message>
    <message>
        <source>Model saved to %1</source>
        <translation>模型已保存到 %1</translation>
    </message>
    <message>
        <source>Could not open the weights: %1</source>
        <translation>无法打开权重文件：%1</translation>
    </message>
    <message>
        <source>Weights from %1: d_model %2</source>
        <translation>权重来自 %1：d_model %2</translation>
    </message>
    <message>
        <source>Could not save the weights: %1</source>
        <translation>无法保存权重文件：%1</translation>
    </message>
    <message>
        <source>Saved the weights to %1</source>
        <translation>权重已保存到 %1</translation>
    </message>
    <message>
        <source>Choose a file ending in .png, .svg or .pdf</source>
        <translation>请选择以 .png、.svg 或 .pdf 结尾的文件名</translation>
    </message>
    <message>
        <source>The image was not exported: %1</source>
        <translation>图片未导出：%1</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>This step has no matrix to export; pick a stage such as Q·Kᵀ.</source>
        <translation>此步骤没有可导出的矩阵；请选择 Q·Kᵀ 等阶段。</translation>
    </message>
    <message>
        <source>The matrix was not exported: %1</source>
        <translation>矩阵未导出：%1</translation>
    </message>
    <message>
        <source>Exporting every stage…</source>
        <translation>正在导出所有阶段…</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled: %n file(s) were written.</source>
        <translation>
            <numerusform>已取消：已写入 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>The stages were not exported: %1</source>
        <translation>阶段未导出：%1</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n file(s) to %1</source>
        <translation>
            <numerusform>已将 %n 个文件导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Start a lesson first, then export it.</source>
        <translation>请先开始一个课程，然后再导出。</translation>
    </message>
    <message>
        <source>Exporting the lesson…</source>
        <translation>正在导出课程…</translation>
    </message>
    <message>
        <source>The lesson was not exported: %1</source>
        <translation>课程未导出：%1</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n page(s) to %1</source>
        <translation>
            <numerusform>已将 %n 页导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>The image is on the clipboard.</source>
        <translation>图片已复制到剪贴板。</translation>
    </message>
    <message>
        <source>The last session could not be restored (%1); starting fresh.</source>
        <translation>无法恢复上次的会话（%1），将重新开始。</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <source>Open weights</source>
        <translation>打开权重文件</translation>
    </message>
    <message>
        <source>Save weights</source>
        <translation>保存权重文件</translation>
    </message>
    <message>
        <source>Open mask</source>
        <translation>打开掩码文件</translation>
    </message>
    <message>
        <source>Mask files (*.mask *.txt);;All files (*)</source>
        <translation>掩码文件 (*.mask *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Save model</source>
        <translation>保存模型</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Resolution (dots per inch):</source>
        <translation>分辨率（每英寸点数）：</translation>
    </message>
    <message>
        <source>Export matrix as CSV</source>
        <translation>将矩阵导出为 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export all stages into a folder</source>
        <translation>将所有阶段导出到一个文件夹</translation>
    </message>
    <message>
        <source>Export all stages</source>
        <translation>导出所有阶段</translation>
    </message>
    <message>
        <source>Image format:</source>
        <translation>图片格式：</translation>
    </message>
    <message>
        <source>Export lesson</source>
        <translation>导出课程</translation>
    </message>
    <message>
        <source>PDF deck (*.pdf);;PNG images, one per step (folder)</source>
        <translation>PDF 幻灯片 (*.pdf);;PNG 图片，每步一张（保存到文件夹）</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.md);;All files (*)</source>
        <translation>课程 (*.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Your work could not be saved automatically: %1</source>
        <translation>无法自动保存你的工作：%1</translation>
    </message>
    <message>
        <source>Your work is not saved automatically: %1.</source>
        <translation>你的工作不会被自动保存：%1。</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>Attention Lab did not close properly last time. Your work until %1 was saved automatically.</source>
        <translation>Attention Lab 上次没有正常关闭。截至 %1 的工作已自动保存。</translation>
    </message>
    <message>
        <source>Sentence: %1</source>
        <translation>句子：%1</translation>
    </message>
    <message>
        <source>Restore it, or discard it and open the last saved session?</source>
        <translation>恢复这些工作，还是丢弃它们并打开上次保存的会话？</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>The unsaved work could not be restored (%1).</source>
        <translation>无法恢复未保存的工作（%1）。</translation>
    </message>
    <message>
        <source>Restored the work saved at %1</source>
        <translation>已恢复 %1 保存的工作</translation>
    </message>
    <message>
        <source>Open model &amp;folder (GPT-2, BERT)…</source>
        <translation>打开模型文件夹（GPT-2、BERT）(&amp;F)…</translation>
    </message>
    <message>
        <source>Open model folder (GPT-2, BERT)</source>
        <translation>打开模型文件夹（GPT-2、BERT）</translation>
    </message>
    <message>
        <source>Ope&amp;n model…</source>
        <translation>打开模型(&amp;N)…</translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation>打开模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>A Hugging Face model folder: %1</source>
        <translation>Hugging Face 模型文件夹：%1</translation>
    </message>
    <message>
        <source>Export all s&amp;tages…</source>
        <translation>导出所有阶段(&amp;T)…</translation>
    </message>
    <message>
        <source>Open a model folder (%1)</source>
        <translation>打开模型文件夹（%1）</translation>
    </message>
    <message>
        <source>Cop&amp;y image</source>
        <translation>复制图片(&amp;Y)</translation>
    </message>
</context>
<context>
    <name>attnlab::FormulaBanner</name>
    <message>
        <source> · head %1 of %2</source>
        <translation> · 头 %1 / %2</translation>
    </message>
    <message>
        <source>Mem is the encoder output: in cross-attention the keys and values come from the source.</source>
        <translation>Mem 是编码器的输出：在交叉注意力中，键和值来自源序列。</translation>
    </message>
    <message>
        <source>X is this block&apos;s input after its LayerNorm (Pre-LN).</source>
        <translation>X 是这个块的输入经过层归一化之后的结果（Pre-LN）。</translation>
    </message>
    <message>
        <source>X is the decoder&apos;s stream after its masked self-attention and Add &amp; Norm: the queries come from the target.</source>
        <translation>X 是解码器经过带掩码的自注意力和 Add &amp; Norm 之后的表示：查询来自目标序列。</translation>
    </message>
    <message>
        <source>X is the embeddings plus the positions.</source>
        <translation>X 是词嵌入加上位置编码。</translation>
    </message>
    <message>
        <source>X is the previous layer&apos;s output.</source>
        <translation>X 是上一层的输出。</translation>
    </message>
    <message>
        <source>GPT-2 cuts the text into subwords with byte-level BPE: frequent words stay whole, rare ones split into pieces; ␣ marks a piece that starts with a space.</source>
        <translation>GPT-2 用字节级 BPE 把文本切成子词：常见词保持完整，罕见词拆成几段；␣ 表示以空格开头的片段。</translation>
    </message>
    <message>
        <source>BERT cuts the text into WordPiece subwords (## continues a word) and wraps it in [CLS] … [SEP].</source>
        <translation>BERT 把文本切成 WordPiece 子词（## 表示接续前一个词），并在两端加上 [CLS] … [SEP]。</translation>
    </message>
    <message>
        <source>The masked-LM head scores every word of the vocabulary at each position: what could stand there.</source>
        <translation>掩码语言模型头在每个位置为词表中的每个词打分：这个位置上可能是什么词。</translation>
    </message>
    <message>
        <source>Softmax turns each row of logits into probabilities over the vocabulary: a masked language model fills in each position, a [MASK] above all. These are no next-token predictions.</source>
        <translation>Softmax 把每一行 logits 变成词表上的概率：掩码语言模型为每个位置（尤其是 [MASK]）填词。这些不是对下一个词元的预测。</translation>
    </message>
    <message>
        <source>RMSNorm rescales each token's vector by the root mean square of its features (no mean is subtracted, there is no β), then multiplies by γ.</source>
        <translation>RMSNorm 用每个词元向量各特征的均方根来缩放它（不减均值，也没有 β），再乘以 γ。</translation>
    </message>
    <message>
        <source>%1 cuts the text into subwords with its folder's tokenizer (tokenizer.json): frequent words stay whole, rare ones split into pieces; ␣ marks a piece that starts with a space.</source>
        <translation>%1 用它文件夹里的分词器（tokenizer.json）把文本切成子词：常见词保持完整，罕见词拆成几段；␣ 表示以空格开头的片段。</translation>
    </message>
    <message>
        <source>X is this block's input after its RMSNorm (the norm comes first, as in Pre-LN).</source>
        <translation>X 是这个块的输入经过 RMSNorm 之后的结果（先归一化，和 Pre-LN 一样）。</translation>
    </message>
    <message>
        <source>%1 cuts the text into subwords with byte-level BPE (its folder's vocab.json and merges.txt): frequent words stay whole, rare ones split into pieces; ␣ marks a piece that starts with a space.</source>
        <translation>%1 用字节级 BPE（它文件夹里的 vocab.json 和 merges.txt）把文本切成子词：常见词保持完整，罕见词拆成几段；␣ 表示以空格开头的片段。</translation>
    </message>
    <message>
        <source>RMSNorm rescales each token's vector by the root mean square of its features (no mean is subtracted, there is no β), then multiplies by 1 + w: Gemma stores each norm's weight w as a change from 1.</source>
        <translation>RMSNorm 用每个词元向量各特征的均方根来缩放它（不减均值，也没有 β），再乘以 1 + w：Gemma 把每个归一化的权重 w 存为相对 1 的变化量。</translation>
    </message>
    <message>
        <source>Gemma 3 divides the scores by √%1, the square root of its query_pre_attn_scalar, instead of √d_k: it keeps their spread in a range the softmax does not saturate.</source>
        <translation>Gemma 3 用 √%1（即 query_pre_attn_scalar 的平方根）而不是 √d_k 去除分数：这样分数的分布范围不会让 softmax 饱和。</translation>
    </message>
    <message>
        <source>A gated feed-forward network (GeGLU) has two linear layers side by side: this one, through the tanh GELU, decides how much of each feature of the other passes.</source>
        <translation>门控前馈网络（GeGLU）有两个并排的线性层：这一层经过 tanh 近似的 GELU 之后，决定另一层的每个特征能通过多少。</translation>
    </message>
    <message>
        <source>%1 normalises each head's queries and keys on their own (an RMSNorm over d_k) before RoPE turns them, which keeps the scores from growing large.</source>
        <translation>%1 在 RoPE 旋转之前，先把每个头的查询和键各自归一化（在 d_k 上做 RMSNorm），使分数不会变得过大。</translation>
    </message>
    <message>
        <source>M_ij = 0 if 0 ≤ i − j &lt; %1, else −∞  (a sliding window of %1 keys)</source>
        <translation>若 0 ≤ i − j &lt; %1，则 M_ij = 0，否则为 −∞（%1 个键的滑动窗口）</translation>
    </message>
    <message>
        <source>In this sliding-window layer each query sees only itself and the %1 keys before it: keys further back are hidden as the future ones are, and −∞ becomes exactly 0 after the softmax.</source>
        <translation>在这个滑动窗口层里，每个查询只看得到它自己和它前面的 %1 个键：更早的键和未来的键一样被遮住，−∞ 经过 softmax 后正好变成 0。</translation>
    </message>
</context>
<context>
    <name>attnlab::KernelRegressionView</name>
    <message>
        <source>Weights: %1 queries × %2 keys</source>
        <translation>权重：%1 个查询 × %2 个键</translation>
    </message>
    <message>
        <source>x = %1</source>
        <translation>x = %1</translation>
    </message>
    <message>
        <source>Weights of x = %1 (sum 1): f(x) = %2, true %3</source>
        <translation>x = %1 的权重（和为 1）：f(x) = %2，真实值 %3</translation>
    </message>
    <message>
        <source>w = 1/σ = %1 (learned; leave-one-out error %2)</source>
        <translation>w = 1/σ = %1（学习所得；留一法误差 %2）</translation>
    </message>
    <message>
        <source>w = 1/σ = %1</source>
        <translation>w = 1/σ = %1</translation>
    </message>
    <message>
        <source>Nadaraya–Watson kernel regression (1964) is attention with nothing learned: the query x scores every key x_i by −(x − x_i)²/2σ², a softmax turns the scores into weights, and the prediction f(x) = Σ w_i·y_i is the weighted average of the values y_i. A small bandwidth σ lets each query attend only to its nearest points (a spiky fit, a narrow band in the heatmap); a large σ spreads the attention over all points alike (a flat fit near the mean).</source>
        <translation>Nadaraya–Watson 核回归（1964）就是没有任何可学习参数的注意力：查询 x 用 −(x − x_i)²/2σ² 给每个键 x_i 打分，softmax 把分数变成权重，预测值 f(x) = Σ w_i·y_i 就是各个值 y_i 的加权平均。带宽 σ 较小时，每个查询只关注离它最近的几个点（拟合曲线起伏尖锐，热力图中是一条窄带）；σ 较大时，注意力均匀地分散到所有点上（拟合曲线平坦，接近均值）。</translation>
    </message>
    <message>
        <source>Query x:</source>
        <translation>查询 x：</translation>
    </message>
    <message>
        <source>The query whose weights are shown under the fit</source>
        <translation>其权重显示在拟合图下方的查询</translation>
    </message>
    <message>
        <source>Bandwidth σ:</source>
        <translation>带宽 σ：</translation>
    </message>
    <message>
        <source>σ on a log scale, from %1 to %2</source>
        <translation>σ 按对数刻度取值，范围 %1 到 %2</translation>
    </message>
    <message>
        <source>The width of the Gaussian kernel exp(−(x − x_i)²/2σ²)</source>
        <translation>高斯核 exp(−(x − x_i)²/2σ²) 的宽度</translation>
    </message>
    <message>
        <source>Learn w</source>
        <translation>学习 w</translation>
    </message>
    <message>
        <source>The classic parameterisation exp(−((x − x_i)·w)²/2), i.e. σ = 1/w: choose the w that predicts each training point best from the others (leave-one-out error)</source>
        <translation>经典的参数化形式 exp(−((x − x_i)·w)²/2)，即 σ = 1/w：选出用其余各点预测每个训练点时效果最好的 w（留一法误差）</translation>
    </message>
    <message>
        <source>Kernel regression f(x)</source>
        <translation>核回归 f(x)</translation>
    </message>
    <message>
        <source>training points (x_i, y_i)</source>
        <translation>训练点 (x_i, y_i)</translation>
    </message>
    <message>
        <source>true 2·sin(x) + x^0.8</source>
        <translation>真实函数 2·sin(x) + x^0.8</translation>
    </message>
    <message>
        <source>prediction f(x) = Σ w_i·y_i</source>
        <translation>预测 f(x) = Σ w_i·y_i</translation>
    </message>
    <message>
        <source>the query&apos;s prediction</source>
        <translation>该查询的预测值</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>weight w_i of key x_i</source>
        <translation>键 x_i 的权重 w_i</translation>
    </message>
    <message>
        <source>kernel bump K(x, t) / Σ K(x, x_i)</source>
        <translation>核函数 K(x, t) / Σ K(x, x_i)</translation>
    </message>
    <message>
        <source>key x_i</source>
        <translation>键 x_i</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>query x</source>
        <translation>查询 x</translation>
    </message>
    <message>
        <source>key x_i (sorted)</source>
        <translation>键 x_i（已排序）</translation>
    </message>
</context>
<context>
    <name>attnlab::LayerNormView</name>
    <message>
        <source>Same colour scale before and after</source>
        <translation>前后使用统一色标</translation>
    </message>
    <message>
        <source>One symmetric colour range for both matrices, so you see how much the norm shrinks or stretches the values</source>
        <translation>两个矩阵使用同一个对称的颜色范围，便于看出归一化把数值缩小或放大了多少</translation>
    </message>
    <message>
        <source>mean μ of the row</source>
        <translation>该行的均值 μ</translation>
    </message>
    <message>
        <source>(x − μ)/σ has mean 0</source>
        <translation>(x − μ)/σ 的均值为 0</translation>
    </message>
    <message>
        <source>(x − μ)/σ has variance 1</source>
        <translation>(x − μ)/σ 的方差为 1</translation>
    </message>
    <message>
        <source>This step has no LayerNorm. Choose one of a layer&apos;s “Norm” steps to see what it does to each token.</source>
        <translation>这一步没有层归一化。请选择某一层的“Norm”步骤，看看它对每个词元做了什么。</translation>
    </message>
    <message>
        <source>LayerNorm is part of a Transformer layer, and one attention block has none. Choose a Transformer model in the settings, then one of a layer&apos;s “Norm” steps.</source>
        <translation>层归一化是 Transformer 层的一部分，单个注意力块中没有。请在设置中选择一个 Transformer 模型，再选择某一层的“Norm”步骤。</translation>
    </message>
    <message>
        <source>%1, the layer&apos;s input</source>
        <translation>%1，该层的输入</translation>
    </message>
    <message>
        <source>%1, the output of layer %2</source>
        <translation>%1，第 %2 层的输出</translation>
    </message>
    <message>
        <source>its input</source>
        <translation>它的输入</translation>
    </message>
    <message>
        <source>The stack&apos;s final LayerNorm normalises its last layer&apos;s output %1.</source>
        <translation>整个堆叠最后的层归一化对最后一层的输出 %1 做归一化。</translation>
    </message>
    <message>
        <source>Pre-LN: the LayerNorm normalises %1 on its way into the sublayer; the residual stream itself is never normalised.</source>
        <translation>Pre-LN：层归一化在 %1 进入子层之前对它做归一化；残差流本身从不被归一化。</translation>
    </message>
    <message>
        <source>Post-LN (Add &amp; Norm): the LayerNorm normalises the residual sum %1.</source>
        <translation>Post-LN（Add &amp; Norm）：层归一化对残差和 %1 做归一化。</translation>
    </message>
    <message>
        <source>Here γ = 1 and β = 0 (as initialised), so %1 keeps exactly that.</source>
        <translation>这里 γ = 1、β = 0（初始值），所以 %1 正好保持这一点。</translation>
    </message>
    <message>
        <source>This LayerNorm&apos;s learned γ (from %1 to %2) and β (from %3 to %4) then scale and shift each feature, so the rows of %5 move off exactly 0 and 1.</source>
        <translation>随后，这个层归一化学到的 γ（%1 到 %2）和 β（%3 到 %4）对每个特征做缩放和平移，所以 %5 的各行不再恰好是 0 和 1。</translation>
    </message>
    <message>
        <source>LN(x) = (x − μ) / √(σ² + ε) · γ + β,   ε = %1,   over each token&apos;s %2 features.</source>
        <translation>LN(x) = (x − μ) / √(σ² + ε) · γ + β，   ε = %1，   对每个词元的 %2 个特征计算。</translation>
    </message>
    <message>
        <source>Before, each token&apos;s mean and variance are whatever the stream made them; after subtracting μ and dividing by √(σ² + ε), every token has mean 0 and variance 1 (the dashed lines).</source>
        <translation>归一化之前，每个词元的均值和方差取决于残差流；减去 μ 并除以 √(σ² + ε) 之后，每个词元的均值都是 0、方差都是 1（虚线）。</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>before: %1</source>
        <translation>之前：%1</translation>
    </message>
    <message>
        <source>after: %1</source>
        <translation>之后：%1</translation>
    </message>
    <message>
        <source>Mean μ of each token&apos;s row</source>
        <translation>每个词元所在行的均值 μ</translation>
    </message>
    <message>
        <source>variance σ² of the row (log scale)</source>
        <translation>该行的方差 σ²（对数刻度）</translation>
    </message>
    <message>
        <source>variance σ² of the row</source>
        <translation>该行的方差 σ²</translation>
    </message>
    <message>
        <source>Variance σ² of each token&apos;s row</source>
        <translation>每个词元所在行的方差 σ²</translation>
    </message>
    <message>
        <source>Before: %1</source>
        <translation>之前：%1</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>之后：%1</translation>
    </message>
    <message>
        <source>0: not moved there</source>
        <translation>0：不会移到这里</translation>
    </message>
    <message>
        <source>x / RMS(x) has RMS 1</source>
        <translation>x / RMS(x) 的均方根为 1</translation>
    </message>
    <message>
        <source>The stack&apos;s final RMSNorm normalises its last layer&apos;s output %1.</source>
        <translation>整个堆栈最后的 RMSNorm 对最后一层的输出 %1 做归一化。</translation>
    </message>
    <message>
        <source>Gemma 3 also normalises the sublayer&apos;s output %1 before adding it to the residual stream.</source>
        <translation>Gemma 3 还会先对子层的输出 %1 做归一化，再把它加回残差流。</translation>
    </message>
    <message>
        <source>Pre-norm: the RMSNorm normalises %1 on its way into the sublayer; the residual stream itself is never normalised.</source>
        <translation>前置归一化：RMSNorm 在 %1 进入子层之前对它做归一化；残差流本身从不被归一化。</translation>
    </message>
    <message>
        <source>RMSNorm(x) = x / √(mean(x²) + ε) · (1 + w),   ε = %1,   over each token&apos;s %2 features.</source>
        <translation>RMSNorm(x) = x / √(mean(x²) + ε) · (1 + w)，   ε = %1，   在每个词元的 %2 个特征上计算。</translation>
    </message>
    <message>
        <source>RMSNorm(x) = x / √(mean(x²) + ε) · γ,   ε = %1,   over each token&apos;s %2 features.</source>
        <translation>RMSNorm(x) = x / √(mean(x²) + ε) · γ，   ε = %1，   在每个词元的 %2 个特征上计算。</translation>
    </message>
    <message>
        <source>Unlike LayerNorm it subtracts no mean (the means on the left are not moved to 0): it divides each token&apos;s vector by its root mean square, so every token has RMS 1 (the dashed line); then the learned weights, one per feature, rescale the features, so the RMS after is not exactly 1.</source>
        <translation>与层归一化不同，它不减去均值（左图中的均值不会被移到 0）：它把每个词元的向量除以其均方根，于是每个词元的均方根都为 1（虚线）；随后每个特征各有一个学到的权重对特征重新缩放，所以归一化后的均方根并不恰好是 1。</translation>
    </message>
    <message>
        <source>Before it, “%1” has a vector %2 times as long as the shortest one; after it, all are about as long.</source>
        <translation>归一化之前，“%1”的向量长度是最短向量的 %2 倍；归一化之后，所有向量的长度大致相同。</translation>
    </message>
    <message>
        <source>RMS of the row (log scale)</source>
        <translation>这一行的均方根（对数坐标）</translation>
    </message>
    <message>
        <source>RMS of the row</source>
        <translation>这一行的均方根</translation>
    </message>
    <message>
        <source>Root mean square of each token&apos;s row</source>
        <translation>每个词元这一行的均方根</translation>
    </message>
</context>
<context>
    <name>attnlab::LessonNotes</name>
    <message>
        <source>cell %1,%2 (the matrix is %3 × %4)</source>
        <translation>格子 %1,%2（矩阵为 %3 × %4）</translation>
    </message>
    <message>
        <source>row %1 (the matrix is %2 × %3)</source>
        <translation>第 %1 行（矩阵为 %2 × %3）</translation>
    </message>
    <message>
        <source>column %1 (the matrix is %2 × %3)</source>
        <translation>第 %1 列（矩阵为 %2 × %3）</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separates the highlights of a list</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>With this sentence the step cannot highlight: %1</source>
        <translation>当前句子下，此步骤无法高亮：%1</translation>
    </message>
</context>
<context>
    <name>attnlab::LessonPlayer</name>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Stop lesson</source>
        <translation>结束课程</translation>
    </message>
    <message>
        <source>Open lesson file…</source>
        <translation>打开课程文件…</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Export lesson…</source>
        <translation>导出课程…</translation>
    </message>
    <message>
        <source>Read the lesson file again after editing it</source>
        <translation>编辑课程文件后重新读取</translation>
    </message>
    <message>
        <source>Save the lesson as a PDF deck or as one image per step</source>
        <translation>将课程保存为 PDF 幻灯片，或每个步骤保存为一张图片</translation>
    </message>
    <message>
        <source>No lesson</source>
        <translation>未开始课程</translation>
    </message>
    <message>
        <source>Pick a lesson above. **Next** / **Previous**, the arrow keys, Space and a presentation clicker step through it.</source>
        <translation>请在上方选择一个课程。使用 **下一步** / **上一步**、方向键、空格键或演示翻页笔逐步浏览。</translation>
    </message>
    <message>
        <source>%1 — step %2 of %3</source>
        <translation>%1 — 步骤 %2 / %3</translation>
    </message>
    <message>
        <source>With this sentence the step cannot highlight: %1</source>
        <translation>当前句子下，此步骤无法高亮：%1</translation>
    </message>
    <message>
        <source>This model has no stage %1 in layer %2 (%3); the nearest one is shown.</source>
        <translation>此模型的第 %2 层（%3）中没有阶段 %1；显示的是最接近的阶段。</translation>
    </message>
    <message>
        <source>This step cannot be computed: %1</source>
        <translation>这一步无法计算：%1</translation>
    </message>
    <message>
        <source>Leave the lesson and bring back your own sentence, settings and model as they were before it</source>
        <translation>结束课程，并恢复开始课程之前你自己的句子、设置和模型</translation>
    </message>
    <message>
        <source>Your own sentence and settings could not be brought back: %1</source>
        <translation>无法恢复你自己的句子和设置：%1</translation>
    </message>
    <message>
        <source>Needs the model %1: this step shows its text only</source>
        <translation>需要模型 %1：这一步只显示文字</translation>
    </message>
</context>
<context>
    <name>attnlab::MainWindow</name>
    <message>
        <source>Attention Lab</source>
        <translation>Attention Lab</translation>
    </message>
    <message>
        <source>&amp;Sentence:</source>
        <translation>句子(&amp;S)：</translation>
    </message>
    <message>
        <source>Type a sentence in any language, e.g. 狗咬了人 or &lt;sos&gt; Je vais bien</source>
        <translation>输入任意语言的句子，例如 狗咬了人 或 &lt;sos&gt; Je vais bien</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>阶段导航</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>How was this computed?</source>
        <translation>这是怎么算出来的？</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Black screen</source>
        <translation>黑屏(&amp;B)</translation>
    </message>
    <message>
        <source>Presenter &amp;screen</source>
        <translation>演示屏幕(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;First stage</source>
        <translation>第一个阶段(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Last stage</source>
        <translation>最后一个阶段(&amp;L)</translation>
    </message>
    <message>
        <source>Next &amp;head</source>
        <translation>下一个头(&amp;H)</translation>
    </message>
    <message>
        <source>Previous h&amp;ead</source>
        <translation>上一个头(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Auto-play</source>
        <translation>自动播放(&amp;A)</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Next step</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous step</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Source:</source>
        <translation>源序列(&amp;S)：</translation>
    </message>
    <message>
        <source>P&amp;anels</source>
        <translation>面板(&amp;A)</translation>
    </message>
    <message>
        <source>Show &amp;all panels</source>
        <translation>显示所有面板</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Press → (or Space, or click Next ▶) to go through the stages one by one.</source>
        <translation>按 →（或空格键，或点击“下一步 ▶”）逐个查看各个阶段。</translation>
    </message>
    <message>
        <source>This step needs the model %1, which the Models folder does not have: its text is in the Lessons panel. File ▸ Models says where to get it.</source>
        <translation>这一步需要模型 %1，但模型文件夹里没有它：这一步的文字在“课程”面板中。“文件 ▸ 模型”说明了从哪里获取它。</translation>
    </message>
</context>
<context>
    <name>attnlab::Messages</name>
    <message>
        <source>a second segment ([SEP] between two sentences) is for BERT models</source>
        <translation>第二段（两个句子之间用 [SEP] 隔开）只适用于 BERT 模型</translation>
    </message>
    <message>
        <source>the text is not valid UTF-8: invalid bytes were replaced by �</source>
        <translation>文本不是有效的 UTF-8：无效的字节已替换为 �</translation>
    </message>
    <message>
        <source>the sentence has %1 tokens; only the first %2 are used (max_tokens)</source>
        <translation>句子有 %1 个词元，只使用前 %2 个（max_tokens）</translation>
    </message>
    <message>
        <source>the sentence has %1 tokens, more than pad_to (%2): nothing was padded</source>
        <translation>句子有 %1 个词元，多于 pad_to（%2）：没有填充</translation>
    </message>
    <message>
        <source>the %1 has %2 tokens; only the first %3 are used</source>
        <translation>%1有 %2 个词元，只使用前 %3 个</translation>
    </message>
    <message>
        <source>'%1' is not in the model's %2 vocabulary: it is read as &lt;unk&gt;</source>
        <translation>“%1”不在模型的%2词表中：按 &lt;unk&gt; 读取</translation>
    </message>
    <message>
        <source>query %1 (“%2”) has every key masked: its attention weights are all 0</source>
        <translation>查询 %1（“%2”）的所有键都被遮蔽：它的注意力权重全为 0</translation>
    </message>
    <message>
        <source>encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>%1: </source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>%1 of layer %2</source>
        <translation>第 %2 层的%1</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标序列</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源序列</translation>
    </message>
    <message>
        <source>the source has no tokens: type at least one</source>
        <translation>源句子没有词元：请至少输入一个</translation>
    </message>
    <message>
        <source>the sentence has no tokens: type at least one word</source>
        <translation>句子没有词元：请至少输入一个词</translation>
    </message>
    <message>
        <source>n (%1) squared times heads (%2) exceeds %3 attention cells: use fewer tokens or heads</source>
        <translation>n (%1) 的平方乘以头数 (%2) 超过 %3 个注意力单元格：请减少词元或头数</translation>
    </message>
    <message>
        <source>the layers&apos; attention matrices would hold %1 cells in all, more than %2: use a shorter sentence</source>
        <translation>各层的注意力矩阵共有 %1 个单元格，超过 %2：请使用更短的句子</translation>
    </message>
    <message>
        <source>d_model (%1) does not match the weights, whose d_model is %2</source>
        <translation>d_model (%1) 与权重不符，权重的 d_model 是 %2</translation>
    </message>
    <message>
        <source>the custom mask needs a mask matrix (a mask file)</source>
        <translation>自定义掩码需要一个掩码矩阵（掩码文件）</translation>
    </message>
    <message>
        <source>the custom mask is %1 x %2 but the sentence has %3 tokens: it must be %3 x %3</source>
        <translation>自定义掩码是 %1 × %2，但句子有 %3 个词元：它必须是 %3 × %3</translation>
    </message>
    <message>
        <source>no model file is open: open one first (File → Open model…)</source>
        <translation>尚未打开模型文件：请先打开一个（文件 → 打开模型…）</translation>
    </message>
    <message>
        <source>this model has no output head (a seeded model): generation needs a trained model; type a target instead (teacher forcing)</source>
        <translation>这个模型没有输出头（随机种子模型）：生成需要训练好的模型；请改为输入目标序列（教师强制）</translation>
    </message>
    <message>
        <source>this model is an encoder stack without a decoder: a target does not apply</source>
        <translation>这个模型只有编码器、没有解码器：目标序列不适用</translation>
    </message>
    <message>
        <source>this model&apos;s source vocabulary has no &lt;pad&gt; token: it cannot be padded (set pad_to to 0)</source>
        <translation>这个模型的源词表里没有 &lt;pad&gt; 词元：无法填充（请把“填充到”设为 0）</translation>
    </message>
    <message>
        <source>a large run: about %1 MB of memory and %2 s of work</source>
        <translation>计算量很大：约需 %1 MB 内存、%2 秒计算</translation>
    </message>
    <message>
        <source>the weights would need about %1 MB, more than the %2 MB allowed: use a smaller d_model, d_ff or fewer layers</source>
        <translation>权重约需 %1 MB，超过允许的 %2 MB：请减小 d_model、d_ff 或层数</translation>
    </message>
    <message>
        <source>the trace would need about %1 MB, more than the %2 MB allowed: use a shorter sentence, fewer layers or a smaller d_model</source>
        <translation>计算轨迹约需 %1 MB，超过允许的 %2 MB：请缩短句子、减少层数或减小 d_model</translation>
    </message>
    <message>
        <source>the values of “%1” went beyond the range of a float (±3.4×10³⁸) and would be inf or NaN: the weights or the input are too large; scale them down</source>
        <translation>“%1”的数值超出了 float 的表示范围（±3.4×10³⁸），会变成 inf 或 NaN：权重或输入太大，请把它们缩小</translation>
    </message>
    <message>
        <source>Performer&apos;s feature exponents reach %1, where a double is only good to %2: its weights and outputs are approximate (the queries and keys are very large)</source>
        <translation>Performer 特征的指数达到 %1，在这个量级上 double 的精度只有 %2：它的权重和输出只是近似值（查询和键非常大）</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: it is a directory</source>
        <translation>无法写入“%1”：它是一个文件夹</translation>
    </message>
    <message>
        <source>the folder &apos;%1&apos; does not exist</source>
        <translation>文件夹“%1”不存在</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a file, not a folder</source>
        <translation>“%1”是文件，不是文件夹</translation>
    </message>
    <message>
        <source>the folder &apos;%1&apos; is on a read-only file system</source>
        <translation>文件夹“%1”位于只读文件系统上</translation>
    </message>
    <message>
        <source>you have no permission to write in the folder &apos;%1&apos;</source>
        <translation>你没有在文件夹“%1”中写入的权限</translation>
    </message>
    <message>
        <source>the disk is full; an earlier file of that name is unchanged</source>
        <translation>磁盘已满；同名的原有文件未被改动</translation>
    </message>
    <message>
        <source>a folder &apos;%1&apos; is where the temporary file must go</source>
        <translation>临时文件的位置上有一个文件夹“%1”</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the tensor &apos;%2&apos; holds values that are not finite (NaN or infinity); an earlier file of that name is unchanged</source>
        <translation>无法写入“%1”：张量“%2”含有非有限值（NaN 或无穷大）；同名的原有文件未被改动</translation>
    </message>
    <message>
        <source>the folder &apos;%1&apos; belongs to the kernel: no file can be made in it</source>
        <translation>文件夹“%1”属于内核：不能在其中创建文件</translation>
    </message>
    <message>
        <source>you have no permission to write to &apos;%1&apos;</source>
        <translation>你没有写入“%1”的权限</translation>
    </message>
    <message>
        <source>no program is reading the pipe &apos;%1&apos;: start the reader first</source>
        <translation>没有程序在读取管道“%1”：请先启动读取端</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a socket, which cannot be written as a file</source>
        <translation>“%1”是一个套接字，不能当作文件写入</translation>
    </message>
    <message>
        <source>training diverged at step %1: the loss is not finite (%2)</source>
        <translation>训练在第 %1 步发散：损失不是有限值（%2）</translation>
    </message>
    <message>
        <source>training diverged at step %1: the gradient is not finite (its norm is %2)</source>
        <translation>训练在第 %1 步发散：梯度不是有限值（其范数为 %2）</translation>
    </message>
    <message>
        <source>training diverged at step %1: the update made weights that are not finite</source>
        <translation>训练在第 %1 步发散：这次更新使权重不再是有限值</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2 (%3)</source>
        <translation>无法写入“%1”：%3（%2）</translation>
    </message>
    <message>
        <source>masks are compared on one attention block only: a Transformer takes its encoder&apos;s mask from the settings (mask, pad-to), and its decoder&apos;s look-ahead mask is always on</source>
        <translation>掩码只在单个注意力块上对照：Transformer 的编码器掩码取自设置（mask、pad-to），解码器的前瞻掩码始终开启</translation>
    </message>
    <message>
        <source>the sentence to compare with has no tokens: write at least one word</source>
        <translation>用来对照的句子没有词元：请至少写一个词</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a string or null</source>
        <translation>字符串或 null</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a whole number or null</source>
        <translation>整数或 null</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>base64 text</source>
        <translation>base64 文本</translation>
    </message>
    <message>
        <source>rows of values 0 or 1</source>
        <translation>由 0 或 1 组成的若干行</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>the JSON nests deeper than %1 levels or holds more than %2 values</source>
        <translation>JSON 的嵌套超过 %1 层，或包含超过 %2 个值</translation>
    </message>
    <message>
        <source>not an Attention Lab session file</source>
        <translation>不是 Attention Lab 会话文件</translation>
    </message>
    <message>
        <source>unsupported version %1</source>
        <translation>不支持的版本 %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is missing</source>
        <translation>缺少“%1”</translation>
    </message>
    <message>
        <source>&apos;%1&apos; must be %2</source>
        <translation>“%1”必须是%2</translation>
    </message>
    <message>
        <source>custom_mask is not square</source>
        <translation>custom_mask 不是方阵</translation>
    </message>
    <message>
        <source>custom_mask has %1 rows, more than the %2 tokens of the longest sentence</source>
        <translation>custom_mask 有 %1 行，超过了最长句子的 %2 个词元</translation>
    </message>
    <message>
        <source>the lesson&apos;s path is empty or its step is negative</source>
        <translation>课程路径为空，或步骤编号为负数</translation>
    </message>
    <message>
        <source>global position %1 is outside the sentence, which has %2 tokens (positions 0 to %3)</source>
        <translation>全局位置 %1 超出了句子范围：句子有 %2 个词元（位置 0 到 %3）</translation>
    </message>
    <message>
        <source>this model reads one text: a target (teacher forcing) is for encoder–decoder models</source>
        <translation>这个模型只读一段文本：目标序列（教师强制）只用于编码器–解码器模型</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>not a safetensors file: it has %1 bytes, fewer than the 8-byte header length</source>
        <translation>不是 safetensors 文件：它只有 %1 字节，不足 8 字节的头部长度</translation>
    </message>
    <message>
        <source>not a safetensors file: header length %1 is outside 1..%2</source>
        <translation>不是 safetensors 文件：头部长度 %1 不在 1..%2 之内</translation>
    </message>
    <message>
        <source>truncated safetensors file: the header needs %1 bytes but only %2 follow</source>
        <translation>safetensors 文件被截断：头部需要 %1 字节，但后面只有 %2 字节</translation>
    </message>
    <message>
        <source>the safetensors header holds more than %1 JSON values (no tensor file needs that many)</source>
        <translation>safetensors 头部含有超过 %1 个 JSON 值（没有张量文件需要这么多）</translation>
    </message>
    <message>
        <source>the header names tensor &apos;%1&apos; twice</source>
        <translation>头部两次列出张量“%1”</translation>
    </message>
    <message>
        <source>the header has the key &apos;%1&apos; twice</source>
        <translation>头部两次出现键“%1”</translation>
    </message>
    <message>
        <source>safetensors header is not valid JSON: %1</source>
        <translation>safetensors 头部不是有效的 JSON：%1</translation>
    </message>
    <message>
        <source>safetensors header is not a JSON object</source>
        <translation>safetensors 头部不是 JSON 对象</translation>
    </message>
    <message>
        <source>safetensors __metadata__ is not an object</source>
        <translation>safetensors 的 __metadata__ 不是对象</translation>
    </message>
    <message>
        <source>safetensors __metadata__ value &apos;%1&apos; is not a string</source>
        <translation>safetensors 的 __metadata__ 值“%1”不是字符串</translation>
    </message>
    <message>
        <source>tensors &apos;%1&apos; [%2, %3) and &apos;%4&apos; [%5, %6) overlap in the data section</source>
        <translation>张量“%1” [%2, %3) 与“%4” [%5, %6) 在数据区重叠</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;</source>
        <translation>张量“%1”</translation>
    </message>
    <message>
        <source>its header entry is not an object</source>
        <translation>它的头部条目不是对象</translation>
    </message>
    <message>
        <source>no dtype</source>
        <translation>没有 dtype</translation>
    </message>
    <message>
        <source>dtype %1 is not a safetensors dtype</source>
        <translation>dtype %1 不是 safetensors 的数据类型</translation>
    </message>
    <message>
        <source>no shape</source>
        <translation>没有 shape</translation>
    </message>
    <message>
        <source>shape entries must be non-negative integers</source>
        <translation>shape 的各项必须是非负整数</translation>
    </message>
    <message>
        <source>shape is too large</source>
        <translation>shape 太大</translation>
    </message>
    <message>
        <source>data_offsets must be two non-negative integers</source>
        <translation>data_offsets 必须是两个非负整数</translation>
    </message>
    <message>
        <source>data_offsets [%1, %2] lie outside the %3 data bytes (truncated file?)</source>
        <translation>data_offsets [%1, %2] 超出了 %3 字节的数据区（文件被截断了？）</translation>
    </message>
    <message>
        <source>holds %1 bytes but its shape and dtype need %2</source>
        <translation>含有 %1 字节，但它的 shape 和 dtype 需要 %2 字节</translation>
    </message>
    <message>
        <source>dtype %1 is not a floating-point type</source>
        <translation>dtype %1 不是浮点类型</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;: dtype %2 is not supported (use F32, F64, F16 or BF16)</source>
        <translation>张量“%1”：不支持 dtype %2（请使用 F32、F64、F16 或 BF16）</translation>
    </message>
    <message>
        <source>&apos;%1&apos;</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder</source>
        <translation>“%1”不是文件夹</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no config.json (a Hugging Face model folder has config.json, model.safetensors and the tokenizer&apos;s files)</source>
        <translation>“%1”没有 config.json（Hugging Face 模型文件夹里有 config.json、model.safetensors 和分词器的文件）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has pytorch_model.bin but no model.safetensors: Attention Lab reads safetensors only; convert it with scripts/convert_to_safetensors.py FOLDER (needs PyTorch) or download the model&apos;s model.safetensors</source>
        <translation>“%1”有 pytorch_model.bin，却没有 model.safetensors：Attention Lab 只读取 safetensors；请用 scripts/convert_to_safetensors.py FOLDER 转换（需要 PyTorch），或者下载该模型的 model.safetensors</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no model.safetensors</source>
        <translation>“%1”没有 model.safetensors</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not valid JSON: %2</source>
        <translation>“%1”不是有效的 JSON：%2</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: do_lower_case must be true or false</source>
        <translation>“%1”：do_lower_case 必须是 true 或 false</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no weight_map naming the shards</source>
        <translation>“%1”没有列出各分片的 weight_map</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: weight_map puts &apos;%2&apos; in &apos;%3&apos;, not a file name in the folder</source>
        <translation>“%1”：weight_map 把“%2”放在“%3”中，这不是该文件夹里的文件名</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is missing (model.safetensors.index.json names it)</source>
        <translation>缺少“%1”（model.safetensors.index.json 列出了它）</translation>
    </message>
    <message>
        <source>model.safetensors.index.json puts tensor &apos;%1&apos; in &apos;%2&apos;, which does not hold it</source>
        <translation>model.safetensors.index.json 把张量“%1”放在“%2”中，但该文件并不含有它</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no tokenizer.json (%2&apos;s tokenizer needs tokenizer.json, or vocab.json and merges.txt)</source>
        <translation>“%1”没有 tokenizer.json（%2 的分词器需要 tokenizer.json，或者 vocab.json 和 merges.txt）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no %2 (%3&apos;s tokenizer needs vocab.json and merges.txt)</source>
        <translation>“%1”没有 %2（%3 的分词器需要 vocab.json 和 merges.txt）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no vocab.txt (%2&apos;s tokenizer needs it)</source>
        <translation>“%1”没有 vocab.txt（%2 的分词器需要它）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has %2 tokens but config.json&apos;s vocab_size is %3</source>
        <translation>“%1”有 %2 个词元，但 config.json 的 vocab_size 是 %3</translation>
    </message>
    <message>
        <source>d_model and heads must be the model&apos;s: d_model %1, heads %2</source>
        <translation>d_model 和头数必须与模型一致：d_model %1，头数 %2</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2</source>
        <translation>%1 不是有效的 JSON：%2</translation>
    </message>
    <message>
        <source>%1 is not a JSON object</source>
        <translation>%1 不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1: model_type is &apos;%2&apos; but Attention Lab opens %3</source>
        <translation>%1：model_type 是“%2”，但 Attention Lab 只能打开 %3</translation>
    </message>
    <message>
        <source>%1: %2 (%3) must be a multiple of %4 (%5)</source>
        <translation>%1：%2（%3）必须是 %4（%5）的倍数</translation>
    </message>
    <message>
        <source>%1 tokens are more than the model&apos;s %2 positions</source>
        <translation>%1 个词元超过了模型的 %2 个位置</translation>
    </message>
    <message>
        <source>segment id %1 is outside the model&apos;s %2 token types</source>
        <translation>段 id %1 超出了模型的 %2 种词元类型</translation>
    </message>
    <message>
        <source>the model has no position after %1 tokens</source>
        <translation>模型在 %1 个词元之后没有更多位置</translation>
    </message>
    <message>
        <source>the prompt&apos;s %1 tokens are more than the model&apos;s %2 positions</source>
        <translation>提示的 %1 个词元超过了模型的 %2 个位置</translation>
    </message>
    <message>
        <source>token id %1 is outside the vocabulary</source>
        <translation>词元 id %1 超出了词表</translation>
    </message>
    <message>
        <source>max_new_tokens (%1) must be between 1 and %2</source>
        <translation>max_new_tokens（%1）必须在 1 到 %2 之间</translation>
    </message>
    <message>
        <source>the temperature must be a positive number</source>
        <translation>温度必须是正数</translation>
    </message>
    <message>
        <source>top-k must be 0 (every token) or more</source>
        <translation>top-k 必须是 0（所有词元）或更大</translation>
    </message>
    <message>
        <source>top-p must be above 0 and at most 1</source>
        <translation>top-p 必须大于 0 且不超过 1</translation>
    </message>
    <message>
        <source>token id %1 is outside the vocabulary (0 … %2)</source>
        <translation>词元 id %1 超出了词表（0 … %2）</translation>
    </message>
    <message>
        <source>it is a directory, not a regular file</source>
        <translation>它是一个目录，不是普通文件</translation>
    </message>
    <message>
        <source>it is a pipe (FIFO), not a regular file</source>
        <translation>它是一个管道（FIFO），不是普通文件</translation>
    </message>
    <message>
        <source>it is a device (character special file), not a regular file</source>
        <translation>它是一个设备（字符特殊文件），不是普通文件</translation>
    </message>
    <message>
        <source>it is a device (block special file), not a regular file</source>
        <translation>它是一个设备（块特殊文件），不是普通文件</translation>
    </message>
    <message>
        <source>it is a socket, not a regular file</source>
        <translation>它是一个套接字，不是普通文件</translation>
    </message>
    <message>
        <source>it is not a regular file</source>
        <translation>它不是普通文件</translation>
    </message>
    <message>
        <source>cannot map the file: %1</source>
        <translation>无法映射该文件：%1</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: no tensor &apos;%2&apos;</source>
        <translation>“%1”：没有张量“%2”</translation>
    </message>
    <message>
        <source>missing tensor &apos;%1&apos; %2</source>
        <translation>缺少张量“%1” %2</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2 but must be %3</source>
        <translation>张量“%1”的形状是 %2，但必须是 %3</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; holds non-finite values (inf or NaN)</source>
        <translation>张量“%1”含有非有限值（inf 或 NaN）</translation>
    </message>
    <message>
        <source>unknown tensor &apos;%1&apos; %2</source>
        <translation>未知张量“%1” %2</translation>
    </message>
    <message>
        <source>%1: %2 is missing</source>
        <translation>%1：缺少 %2</translation>
    </message>
    <message>
        <source>%1: %2 must be a whole number, not %3</source>
        <translation>%1：%2 必须是整数，而不是 %3</translation>
    </message>
    <message>
        <source>%1: %2 is %3 but Attention Lab opens %4 to %5</source>
        <translation>%1：%2 是 %3，但 Attention Lab 只能打开 %4 到 %5</translation>
    </message>
    <message>
        <source>%1: %2 must be a small positive number, not %3</source>
        <translation>%1：%2 必须是一个小的正数，而不是 %3</translation>
    </message>
    <message>
        <source>%1: %2 must be a string, not %3</source>
        <translation>%1：%2 必须是字符串，而不是 %3</translation>
    </message>
    <message>
        <source>%1: %2 is &apos;%3&apos; but Attention Lab computes gelu_new, gelu and relu</source>
        <translation>%1：%2 是“%3”，但 Attention Lab 只计算 gelu_new、gelu 和 relu</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; appears twice, as &apos;%2&apos; and &apos;%3&apos;</source>
        <translation>张量“%1”出现了两次：“%2”和“%3”</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; appears twice, as &apos;%2&apos; and &apos;%3&apos; (in &apos;%4&apos;)</source>
        <translation>张量“%1”出现了两次：“%2”和“%3”（在“%4”中）</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is %2; Attention Lab reads F32, F16 and BF16</source>
        <translation>张量“%1”是 %2；Attention Lab 读取 F32、F16 和 BF16</translation>
    </message>
    <message>
        <source>not an Attention Lab model: the metadata has no &apos;format&apos; (expected %1; docs/model-format.md)</source>
        <translation>不是 Attention Lab 模型：元数据中没有“format”（应为 %1；见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is missing (docs/model-format.md)</source>
        <translation>缺少元数据“%1”（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is missing (an open vocabulary needs it) (docs/model-format.md)</source>
        <translation>缺少元数据“%1”（开放词表需要它）（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is &apos;%2&apos;, not a whole number (docs/model-format.md)</source>
        <translation>元数据“%1”是“%2”，不是整数（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is %2 but must be between %3 and %4 (docs/model-format.md)</source>
        <translation>元数据“%1”是 %2，但必须在 %3 到 %4 之间（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is &apos;%2&apos; but must be true or false (docs/model-format.md)</source>
        <translation>元数据“%1”是“%2”，但必须是 true 或 false（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is &apos;%2&apos; but must be %3 or %4 (docs/model-format.md)</source>
        <translation>元数据“%1”是“%2”，但必须是 %3 或 %4（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is &apos;%2&apos; but must be %3 (docs/model-format.md)</source>
        <translation>元数据“%1”是“%2”，但必须是 %3（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is &apos;%2&apos; but must be a positive number (docs/model-format.md)</source>
        <translation>元数据“%1”是“%2”，但必须是正数（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; is not a JSON array of strings (docs/model-format.md)</source>
        <translation>元数据“%1”不是字符串的 JSON 数组（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; must be a non-empty JSON array of strings (docs/model-format.md)</source>
        <translation>元数据“%1”必须是非空的字符串 JSON 数组（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; must hold only strings (docs/model-format.md)</source>
        <translation>元数据“%1”只能含有字符串（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; holds &apos;%2&apos; twice (docs/model-format.md)</source>
        <translation>元数据“%1”含有两次“%2”（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>metadata &apos;%1&apos; must contain %2 (docs/model-format.md)</source>
        <translation>元数据“%1”必须包含 %2（见 docs/model-format.md）</translation>
    </message>
    <message>
        <source>the metadata describes an invalid model</source>
        <translation>元数据描述的模型无效</translation>
    </message>
    <message>
        <source>a model with learned positions cannot be written: the model format has no position table</source>
        <translation>带有学习位置编码的模型无法保存：模型格式中没有位置表</translation>
    </message>
    <message>
        <source>a model with %1 positions cannot be written: the model format stores sinusoidal positions or none</source>
        <translation>使用 %1 位置编码的模型无法保存：模型格式只保存正弦位置编码或不保存位置编码</translation>
    </message>
    <message>
        <source>the shipped model cannot be read</source>
        <translation>无法读取内置模型</translation>
    </message>
    <message>
        <source>not an Attention Lab model (its metadata has no &apos;format&apos;): to read it as a PyTorch state dict of nn.Transformer&apos;s modules, give its number of heads (--heads H; and --norm, --activation, --layer-norm-eps when they are not PyTorch&apos;s defaults)</source>
        <translation>不是 Attention Lab 模型（它的元数据中没有“format”）：要把它当作 nn.Transformer 各模块的 PyTorch 状态字典读取，请给出它的头数（--heads H；如果与 PyTorch 的默认值不同，还需给出 --norm、--activation、--layer-norm-eps）</translation>
    </message>
    <message>
        <source>not an Attention Lab model, nor a PyTorch Transformer state dict: expected the names of an nn.TransformerEncoderLayer or DecoderLayer (self_attn.in_proj_weight, …), an nn.TransformerEncoder or Decoder (layers.0.…) or an nn.Transformer (encoder.layers.0.…)</source>
        <translation>既不是 Attention Lab 模型，也不是 PyTorch Transformer 状态字典：应为 nn.TransformerEncoderLayer 或 DecoderLayer（self_attn.in_proj_weight, …）、nn.TransformerEncoder 或 Decoder（layers.0.…）或 nn.Transformer（encoder.layers.0.…）的张量名</translation>
    </message>
    <message>
        <source>unknown tensor &apos;%1&apos;: layers are numbered 0 … %2</source>
        <translation>未知张量“%1”：层的编号是 0 … %2</translation>
    </message>
    <message>
        <source>missing tensor &apos;%1&apos; (its shape gives d_model)</source>
        <translation>缺少张量“%1”（它的形状给出 d_model）</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2 but must be [d, d] with d_model from 1 to %3</source>
        <translation>张量“%1”的形状是 %2，但必须是 [d, d]，其中 d_model 在 1 到 %3 之间</translation>
    </message>
    <message>
        <source>missing tensor &apos;%1&apos; (its shape gives d_ff)</source>
        <translation>缺少张量“%1”（它的形状给出 d_ff）</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2 but must be [d_ff, d_model] with d_ff from 1 to %3</source>
        <translation>张量“%1”的形状是 %2，但必须是 [d_ff, d_model]，其中 d_ff 在 1 到 %3 之间</translation>
    </message>
    <message>
        <source>a PyTorch state dict does not say how many heads its attention has: give them (--heads)</source>
        <translation>PyTorch 状态字典没有说明注意力有几个头：请给出头数（--heads）</translation>
    </message>
    <message>
        <source>cannot read the weights with these options</source>
        <translation>无法用这些选项读取权重</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the model&apos;s source vocabulary</source>
        <translation>“%1”不在模型的源词表中</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the model&apos;s target vocabulary</source>
        <translation>“%1”不在模型的目标词表中</translation>
    </message>
    <message>
        <source>d_model (%1) and heads (%2) must be the model&apos;s: d_model %3, heads %4</source>
        <translation>d_model（%1）和头数（%2）必须与模型一致：d_model %3，头数 %4</translation>
    </message>
    <message>
        <source>no model: choose one in the settings</source>
        <translation>没有模型：请在设置中选择一个</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;: separate q/k/v projections (kdim or vdim differing from embed_dim) are not supported; expected one &apos;in_proj_weight&apos; [3d, d]</source>
        <translation>张量“%1”：不支持分开的 q/k/v 投影（kdim 或 vdim 与 embed_dim 不同）；应为一个“in_proj_weight”[3d, d]</translation>
    </message>
    <message>
        <source>no attention weights found: expected a tensor &apos;in_proj_weight&apos; [3d, d] (an nn.MultiheadAttention state dict, optionally under a prefix such as &apos;self_attn.&apos;)</source>
        <translation>没有找到注意力权重：应有一个张量“in_proj_weight”[3d, d]（nn.MultiheadAttention 的 state dict，可以带“self_attn.”这样的前缀）</translation>
    </message>
    <message>
        <source>the file holds several attention blocks (prefixes %1); choose one</source>
        <translation>文件中有多个注意力块（前缀 %1）：请选择一个</translation>
    </message>
    <message>
        <source>missing tensor &apos;%1&apos; [3d, d]</source>
        <translation>缺少张量“%1”[3d, d]</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2 but must be [3d, d]</source>
        <translation>张量“%1”的形状是 %2，但必须是 [3d, d]</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has d_model %2; at most %3 is supported</source>
        <translation>张量“%1”的 d_model 是 %2；最多支持 %3</translation>
    </message>
    <message>
        <source>missing tensor &apos;%1&apos; [%2, %3]</source>
        <translation>缺少张量“%1”[%2, %3]</translation>
    </message>
    <message>
        <source>the attention weights hold non-finite values (inf or NaN)</source>
        <translation>注意力权重中有非有限值（inf 或 NaN）</translation>
    </message>
    <message>
        <source>the attention biases hold non-finite values (inf or NaN)</source>
        <translation>注意力偏置中有非有限值（inf 或 NaN）</translation>
    </message>
    <message>
        <source>metadata num_heads is &apos;%1&apos; but must be a whole number from 1 to %2 that divides d_model (%3)</source>
        <translation>元数据 num_heads 是“%1”，但必须是 1 到 %2 之间、能整除 d_model（%3）的整数</translation>
    </message>
    <message>
        <source>%1 is %2 x %3 but must be %4 x %5 (queries x keys)</source>
        <translation>%1 是 %2 × %3，但必须是 %4 × %5（查询 × 键）</translation>
    </message>
    <message>
        <source>%1 has %2 entries but must have %3 (one per key)</source>
        <translation>%1 有 %2 项，但必须有 %3 项（每个键一项）</translation>
    </message>
    <message>
        <source>mask line %1, byte %2: unexpected %3 (only 0, 1, spaces and commas are allowed)</source>
        <translation>掩码第 %1 行第 %2 个字节：意外的 %3（只允许 0、1、空格和逗号）</translation>
    </message>
    <message>
        <source>the mask has more than %1 rows</source>
        <translation>掩码超过 %1 行</translation>
    </message>
    <message>
        <source>the mask is empty: it needs n lines of n values 0 or 1</source>
        <translation>掩码是空的：它需要 n 行、每行 n 个 0 或 1</translation>
    </message>
    <message>
        <source>mask row %1 has %2 values but the mask has %3 rows: it must be square</source>
        <translation>掩码第 %1 行有 %2 个值，但掩码有 %3 行：它必须是方阵</translation>
    </message>
    <message>
        <source>a norm over %1 features needs γ of %1 values and β of none or %1</source>
        <translation>对 %1 个特征做归一化需要 %1 个值的 γ，以及没有或 %1 个值的 β</translation>
    </message>
    <message>
        <source>eps (%1) must be a positive number</source>
        <translation>eps（%1）必须是正数</translation>
    </message>
    <message>
        <source>kv_heads (%1) must divide heads (%2)</source>
        <translation>kv_heads（%1）必须能整除 heads（%2）</translation>
    </message>
    <message>
        <source>the projections must be heads·head_dim and kv_heads·head_dim wide</source>
        <translation>投影的宽度必须是 heads·head_dim 和 kv_heads·head_dim</translation>
    </message>
    <message>
        <source>%1 has %2 weights and %3 biases but d_model is %4</source>
        <translation>%1 有 %2 个权重和 %3 个偏置，但 d_model 是 %4</translation>
    </message>
    <message>
        <source>the LayerNorm has %1 weights and %2 biases but d_model is %3</source>
        <translation>LayerNorm 有 %1 个权重和 %2 个偏置，但 d_model 是 %3</translation>
    </message>
    <message>
        <source>linear1 is %1 with %2 biases but must be %3 (d_ff x d_model) with %4</source>
        <translation>linear1 是 %1、有 %2 个偏置，但必须是 %3（d_ff × d_model）、有 %4 个偏置</translation>
    </message>
    <message>
        <source>linear2 is %1 with %2 biases but must be %3 (d_model x d_ff) with %4</source>
        <translation>linear2 是 %1、有 %2 个偏置，但必须是 %3（d_model × d_ff）、有 %4 个偏置</translation>
    </message>
    <message>
        <source>%1.in_proj_weight is %2 and out_proj.weight %3 but must be %4 and %5 (with biases of %6 and %7) for d_model %7</source>
        <translation>%1.in_proj_weight 是 %2，out_proj.weight 是 %3，但 d_model 为 %7 时必须是 %4 和 %5（偏置分别为 %6 和 %7 个）</translation>
    </message>
    <message>
        <source>the layers&apos; attention matrices hold %1 cells in all, more than %2: use fewer tokens, heads or layers</source>
        <translation>各层的注意力矩阵共有 %1 个单元格，超过 %2：请减少词元、头数或层数</translation>
    </message>
    <message>
        <source>a residual adds two matrices of one shape, not %1 and %2</source>
        <translation>残差连接把两个形状相同的矩阵相加，而不是 %1 和 %2</translation>
    </message>
    <message>
        <source>the encoder stack has %1 layers of weights but encoder_layers is %2 (at least 1)</source>
        <translation>编码器堆叠有 %1 层权重，但 encoder_layers 是 %2（至少为 1）</translation>
    </message>
    <message>
        <source>the decoder stack has %1 layers of weights but decoder_layers is %2 (at least 1)</source>
        <translation>解码器堆叠有 %1 层权重，但 decoder_layers 是 %2（至少为 1）</translation>
    </message>
    <message>
        <source>the weights hold %1 encoder and %2 decoder layers but the options ask for %3 and %4</source>
        <translation>权重有 %1 个编码器层和 %2 个解码器层，但选项要求 %3 个和 %4 个</translation>
    </message>
    <message>
        <source>final_norms is on but the weights have no final norm (encoder.norm, decoder.norm)</source>
        <translation>final_norms 已打开，但权重中没有最终归一化（encoder.norm、decoder.norm）</translation>
    </message>
    <message>
        <source>%1 has %2 tokens but %3 rows</source>
        <translation>%1 有 %2 个词元，但有 %3 行</translation>
    </message>
    <message>
        <source>a custom mask is for one attention block; a Transformer takes no mask, a causal or a padding mask</source>
        <translation>自定义掩码只用于单个注意力块；Transformer 只接受无掩码、因果掩码或填充掩码</translation>
    </message>
    <message>
        <source>only an encoder–decoder model with its own vocabularies can be trained</source>
        <translation>只有带自己词表的编码器–解码器模型才能训练</translation>
    </message>
    <message>
        <source>the model has no decoder or no output head to train</source>
        <translation>这个模型没有可训练的解码器或输出头</translation>
    </message>
    <message>
        <source>a model is trained with sinusoidal positions or none</source>
        <translation>训练的模型只能使用正弦位置编码或不用位置编码</translation>
    </message>
    <message>
        <source>only a model with its own vocabularies can be trained</source>
        <translation>只有带自己词表的模型才能训练</translation>
    </message>
    <message>
        <source>the source has no tokens</source>
        <translation>源序列没有词元</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the model&apos;s vocabulary</source>
        <translation>“%1”不在模型的词表中</translation>
    </message>
    <message>
        <source>a trained model needs at least one decoder layer</source>
        <translation>要训练的模型至少需要一个解码器层</translation>
    </message>
    <message>
        <source>--steps (%1) must be at least 1</source>
        <translation>--steps（%1）至少为 1</translation>
    </message>
    <message>
        <source>--steps (%1) must be at most %2</source>
        <translation>--steps（%1）最多为 %2</translation>
    </message>
    <message>
        <source>--batch (%1) must be 1 to 4096 pairs</source>
        <translation>--batch（%1）必须是 1 到 4096 对</translation>
    </message>
    <message>
        <source>--label-smoothing (%1) must be at least 0 and less than 1</source>
        <translation>--label-smoothing（%1）必须不小于 0 且小于 1</translation>
    </message>
    <message>
        <source>--clip-norm (%1) must be a positive number</source>
        <translation>--clip-norm（%1）必须是正数</translation>
    </message>
    <message>
        <source>--threads (%1) must be 1 to 64</source>
        <translation>--threads（%1）必须是 1 到 64</translation>
    </message>
    <message>
        <source>--batch-all trains on every line of a file: give --task FILE.tsv</source>
        <translation>--batch-all 用文件的每一行训练：请给出 --task FILE.tsv</translation>
    </message>
    <message>
        <source>the learning rate (%1) must be a positive number</source>
        <translation>学习率（%1）必须是正数</translation>
    </message>
    <message>
        <source>the warm-up (%1) must be 0 or more steps</source>
        <translation>预热（%1）必须是 0 步或更多</translation>
    </message>
    <message>
        <source>the longest string (%1) must be 1 to 64 characters</source>
        <translation>最长字符串（%1）必须是 1 到 64 个字符</translation>
    </message>
    <message>
        <source>%1:%2</source>
        <translation>%1:%2</translation>
    </message>
    <message>
        <source>binary data (a NUL byte): a training file is UTF-8 text, one source&lt;TAB&gt;target pair per line</source>
        <translation>二进制数据（NUL 字节）：训练文件是 UTF-8 文本，每行一对 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>not UTF-8 text: a training file is UTF-8 text, one source&lt;TAB&gt;target pair per line</source>
        <translation>不是 UTF-8 文本：训练文件是 UTF-8 文本，每行一对 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>no TAB: expected source&lt;TAB&gt;target</source>
        <translation>没有 TAB：应为 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>%1 TABs: expected source&lt;TAB&gt;target</source>
        <translation>有 %1 个 TAB：应为 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>the source has no tokens: expected source&lt;TAB&gt;target</source>
        <translation>源序列没有词元：应为 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>the target has no tokens: expected source&lt;TAB&gt;target</source>
        <translation>目标序列没有词元：应为 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>the source has more than %1 tokens: a training pair is at most %1 source and %2 target tokens (split the line)</source>
        <translation>源序列超过 %1 个词元：一个训练对最多有 %1 个源词元和 %2 个目标词元（请拆分这一行）</translation>
    </message>
    <message>
        <source>the target has more than %2 tokens: a training pair is at most %1 source and %2 target tokens (split the line)</source>
        <translation>目标序列超过 %2 个词元：一个训练对最多有 %1 个源词元和 %2 个目标词元（请拆分这一行）</translation>
    </message>
    <message>
        <source>%1: the file is empty: expected one source&lt;TAB&gt;target pair per line</source>
        <translation>%1：文件是空的：应为每行一对 源&lt;TAB&gt;目标</translation>
    </message>
    <message>
        <source>%1: every line is held out (1 line): add lines, or train on every line with --batch-all</source>
        <translation>%1：每一行都被留作验证（1 行）：请添加更多行，或用 --batch-all 在每一行上训练</translation>
    </message>
    <message>
        <source>%1: every line is held out (%2 lines): add lines, or train on every line with --batch-all</source>
        <translation>%1：每一行都被留作验证（%2 行）：请添加更多行，或用 --batch-all 在每一行上训练</translation>
    </message>
    <message>
        <source>unknown comparison &apos;%1&apos; (expected a sentence, or sentence=, pe=, scale=, mask= or seed=)</source>
        <translation>未知的比较“%1”（应为一个句子，或 sentence=、pe=、scale=、mask=、seed=）</translation>
    </message>
    <message>
        <source>pe: &apos;%1&apos; is not one of sinusoidal, learned, none</source>
        <translation>pe：“%1”不是 sinusoidal、learned、none 之一</translation>
    </message>
    <message>
        <source>scale: &apos;%1&apos; is not on or off</source>
        <translation>scale：“%1”不是 on 或 off</translation>
    </message>
    <message>
        <source>mask: &apos;%1&apos; is not one of none, causal, padding, causal+padding</source>
        <translation>mask：“%1”不是 none、causal、padding、causal+padding 之一</translation>
    </message>
    <message>
        <source>seed: &apos;%1&apos; is not a whole number from 0 to 18446744073709551615</source>
        <translation>seed：“%1”不是 0 到 18446744073709551615 之间的整数</translation>
    </message>
    <message>
        <source>d_k (%1) must lie between 1 and the example&apos;s dimension (%2)</source>
        <translation>d_k（%1）必须在 1 和示例的维数（%2）之间</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>%1: not JSON: %2</source>
        <translation>%1：不是 JSON：%2</translation>
    </message>
    <message>
        <source>expected a JSON object, found %1</source>
        <translation>应为 JSON 对象，实际是 %1</translation>
    </message>
    <message>
        <source>expected a string, found %1</source>
        <translation>应为字符串，实际是 %1</translation>
    </message>
    <message>
        <source>expected true or false, found %1</source>
        <translation>应为 true 或 false，实际是 %1</translation>
    </message>
    <message>
        <source>expected a whole number from %1 to %2, found %3</source>
        <translation>应为 %1 到 %2 之间的整数，实际是 %3</translation>
    </message>
    <message>
        <source>expected a list, found %1</source>
        <translation>应为列表，实际是 %1</translation>
    </message>
    <message>
        <source>a single sequence&apos;s template can hold $A only, found $%1</source>
        <translation>单个序列的模板只能含有 $A，实际是 $%1</translation>
    </message>
    <message>
        <source>the template&apos;s special token &apos;%1&apos; is not listed</source>
        <translation>模板中的特殊词元“%1”没有列出</translation>
    </message>
    <message>
        <source>expected a token id, found %1</source>
        <translation>应为词元 id，实际是 %1</translation>
    </message>
    <message>
        <source>expected {&quot;Sequence&quot;: …} or {&quot;SpecialToken&quot;: …}</source>
        <translation>应为 {&quot;Sequence&quot;: …} 或 {&quot;SpecialToken&quot;: …}</translation>
    </message>
    <message>
        <source>expected [token, id], found %1</source>
        <translation>应为 [token, id]，实际是 %1</translation>
    </message>
    <message>
        <source>the post-processor &apos;%1&apos; is not supported (Attention Lab computes %2)</source>
        <translation>不支持后处理器“%1”（Attention Lab 计算 %2）</translation>
    </message>
    <message>
        <source>the token is %1 bytes long, more than a token can be</source>
        <translation>该词元长 %1 字节，超过了词元的最大长度</translation>
    </message>
    <message>
        <source>this is tokenizer.json version %1; Attention Lab reads version 1.0</source>
        <translation>这是 tokenizer.json 的 %1 版；Attention Lab 读取 1.0 版</translation>
    </message>
    <message>
        <source>padding every text to a fixed length is not supported</source>
        <translation>不支持把每段文本填充到固定长度</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the vocabulary of %2</source>
        <translation>“%1”不在 %2 的词表中</translation>
    </message>
    <message>
        <source>true, but there is no bos_token</source>
        <translation>为 true，但没有 bos_token</translation>
    </message>
    <message>
        <source>true, but there is no eos_token</source>
        <translation>为 true，但没有 eos_token</translation>
    </message>
    <message>
        <source>the special token id %1 is outside the vocabulary (0 … %2)</source>
        <translation>特殊词元 id %1 超出了词表（0 … %2）</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>不是 JSON：%1</translation>
    </message>
    <message>
        <source>expected a JSON object of token -&gt; id, found %1</source>
        <translation>应为“词元 -&gt; id”的 JSON 对象，实际是 %1</translation>
    </message>
    <message>
        <source>the token &apos;%1&apos; is %2 bytes long, more than a token can be (%3 bytes)</source>
        <translation>词元“%1”长 %2 字节，超过了词元的最大长度（%3 字节）</translation>
    </message>
    <message>
        <source>the id of token &apos;%1&apos; is not an integer: %2</source>
        <translation>词元“%1”的 id 不是整数：%2</translation>
    </message>
    <message>
        <source>the id of token &apos;%1&apos;, %2, is outside 0 … %3 (the ids must number the %4 tokens)</source>
        <translation>词元“%1”的 id %2 不在 0 … %3 之内（这些 id 必须为 %4 个词元依次编号）</translation>
    </message>
    <message>
        <source>tokens &apos;%1&apos; and &apos;%2&apos; have the same id %3</source>
        <translation>词元“%1”和“%2”的 id 相同，都是 %3</translation>
    </message>
    <message>
        <source>the line is %1 bytes long, more than two tokens can be (%2 bytes each): &apos;%3&apos;</source>
        <translation>该行长 %1 字节，超过了两个词元的最大长度（每个 %2 字节）：“%3”</translation>
    </message>
    <message>
        <source>expected two tokens separated by a space, found %1: &apos;%2&apos;</source>
        <translation>应为用空格分隔的两个词元，实际有 %1 个：“%2”</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the vocabulary (&apos;%2&apos;)</source>
        <translation>“%1”不在词表（“%2”）中</translation>
    </message>
    <message>
        <source>the merge of &apos;%1&apos; and &apos;%2&apos;, &apos;%3&apos;, is not in the vocabulary (&apos;%4&apos;)</source>
        <translation>“%1”与“%2”合并得到的“%3”不在词表（“%4”）中</translation>
    </message>
    <message>
        <source>the byte %1 has no token (&apos;%2&apos;); byte-level BPE needs one for each of the 256 bytes</source>
        <translation>字节 %1 没有词元（“%2”）；字节级 BPE 需要 256 个字节各有一个词元</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: line %2 is %3 bytes long, more than a token can be (%4 bytes; BERT reads words of up to %5 characters): &apos;%6&apos;</source>
        <translation>“%1”：第 %2 行长 %3 字节，超过了词元的最大长度（%4 字节；BERT 读取最多 %5 个字符的词）：“%6”</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: line %2 is not UTF-8: &apos;%3&apos;</source>
        <translation>“%1”：第 %2 行不是 UTF-8：“%3”</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the vocabulary has no %2 token (BERT needs [UNK], [CLS] and [SEP])</source>
        <translation>“%1”：词表中没有 %2 词元（BERT 需要 [UNK]、[CLS] 和 [SEP]）</translation>
    </message>
    <message>
        <source>%1 at offset %2</source>
        <translation>%1（位于偏移 %2）</translation>
    </message>
    <message>
        <source>ICU has no normalization data: %1</source>
        <translation>ICU 没有规范化数据：%1</translation>
    </message>
    <message>
        <source>normalization failed: %1</source>
        <translation>规范化失败：%1</translation>
    </message>
    <message>
        <source>ICU has no NFD data: %1</source>
        <translation>ICU 没有 NFD 数据：%1</translation>
    </message>
    <message>
        <source>NFD failed: %1</source>
        <translation>NFD 失败：%1</translation>
    </message>
    <message>
        <source>this is not a text file (it contains a NUL byte)</source>
        <translation>这不是文本文件（其中有 NUL 字节）</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text (byte 0x%1 in this line); save it as UTF-8</source>
        <translation>文件不是 UTF-8 文本（这一行有字节 0x%1）：请以 UTF-8 保存</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a whole number</source>
        <translation>%1：“%2”不是整数</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is too large</source>
        <translation>%1：“%2”太大</translation>
    </message>
    <message>
        <source>seed: &apos;%1&apos; must be a whole number, 0 or more</source>
        <translation>seed：“%1”必须是 0 或更大的整数</translation>
    </message>
    <message>
        <source>seed: &apos;%1&apos; is too large (at most 18446744073709551615)</source>
        <translation>seed：“%1”太大（最多 18446744073709551615）</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a switch (expected on, off, true or false)</source>
        <translation>%1：“%2”不是开关值（应为 on、off、true 或 false）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a row number (positions are whole numbers counted from 1)</source>
        <translation>“%1”不是行号（位置是从 1 开始数的整数）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a column number (positions are whole numbers counted from 1)</source>
        <translation>“%1”不是列号（位置是从 1 开始数的整数）</translation>
    </message>
    <message>
        <source>row %1 does not exist: positions count from 1</source>
        <translation>第 %1 行不存在：位置从 1 开始数</translation>
    </message>
    <message>
        <source>column %1 does not exist: positions count from 1</source>
        <translation>第 %1 列不存在：位置从 1 开始数</translation>
    </message>
    <message>
        <source>row %1 is beyond the largest matrix (%2 tokens)</source>
        <translation>第 %1 行超出了最大的矩阵（%2 个词元）</translation>
    </message>
    <message>
        <source>column %1 is beyond the largest matrix (%2 columns)</source>
        <translation>第 %1 列超出了最大的矩阵（%2 列）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; needs at least one row,column pair (write e.g. &apos;cells 1,2 1,3; row 4; column 1&apos;)</source>
        <translation>“%1”至少需要一个 行,列 对（例如写成“cells 1,2 1,3; row 4; column 1”）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a cell: write row,column like 1,2</source>
        <translation>“%1”不是单元格：请写成 行,列，例如 1,2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; needs at least one row number (write e.g. &apos;cells 1,2 1,3; row 4; column 1&apos;)</source>
        <translation>“%1”至少需要一个行号（例如写成“cells 1,2 1,3; row 4; column 1”）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; needs at least one column number (write e.g. &apos;cells 1,2 1,3; row 4; column 1&apos;)</source>
        <translation>“%1”至少需要一个列号（例如写成“cells 1,2 1,3; row 4; column 1”）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a row number (separate numbers with spaces; pairs belong to &apos;cells&apos;)</source>
        <translation>“%1”不是行号（数字之间用空格分隔；数对属于“cells”）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a column number (separate numbers with spaces; pairs belong to &apos;cells&apos;)</source>
        <translation>“%1”不是列号（数字之间用空格分隔；数对属于“cells”）</translation>
    </message>
    <message>
        <source>unknown group &apos;%1&apos; (expected cells, rows or columns)</source>
        <translation>未知的组“%1”（应为 cells、rows 或 columns）</translation>
    </message>
    <message>
        <source>unknown group &apos;%1&apos;: did you mean &apos;%2&apos;? (expected cells, rows or columns)</source>
        <translation>未知的组“%1”：你是不是想写“%2”？（应为 cells、rows 或 columns）</translation>
    </message>
    <message>
        <source>nothing to highlight (write e.g. &apos;cells 1,2 1,3; row 4; column 1&apos;)</source>
        <translation>没有要高亮的内容（例如写成“cells 1,2 1,3; row 4; column 1”）</translation>
    </message>
    <message>
        <source>requires: name the model folder, e.g. &apos;requires: gpt2&apos; (known: %1)</source>
        <translation>requires：请写出模型文件夹的名字，例如“requires: gpt2”（已知：%1）</translation>
    </message>
    <message>
        <source>requires: &apos;%1&apos; is not a folder name (letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;, not starting with &apos;.&apos;)</source>
        <translation>requires：“%1”不是文件夹名（只能用字母、数字、“-”、“_”和“.”，且不以“.”开头）</translation>
    </message>
    <message>
        <source>requires: after the folder name only %1 may follow, not &apos;%2&apos;</source>
        <translation>requires：文件夹名后面只能跟 %1，不能跟“%2”</translation>
    </message>
    <message>
        <source>requires: unknown type &apos;%1&apos; (expected one of %2)</source>
        <translation>requires：未知的类型“%1”（应为 %2 之一）</translation>
    </message>
    <message>
        <source>requires: unknown type &apos;%1&apos;: did you mean &apos;%2&apos;? (expected one of %3)</source>
        <translation>requires：未知的类型“%1”：你是不是想写“%2”？（应为 %3 之一）</translation>
    </message>
    <message>
        <source>requires: %1 is a %2 model, not type=%3</source>
        <translation>requires：%1 是 %2 模型，不是 type=%3</translation>
    </message>
    <message>
        <source>requires: &apos;%1&apos; is not a model Attention Lab knows (known: %2); for a folder of your own give its family: &apos;requires: %3, %4</source>
        <translation>requires：“%1”不是 Attention Lab 认识的模型（已知：%2）；如果是你自己的文件夹，请写出它的模型家族：&apos;requires: %3, %4</translation>
    </message>
    <message>
        <source>requires: &apos;%1&apos; is not a model Attention Lab knows: did you mean &apos;%2&apos;? (known: %3); for a folder of your own give its family: &apos;requires: %4, %5</source>
        <translation>requires：“%1”不是 Attention Lab 认识的模型：你是不是想写“%2”？（已知：%3）；如果是你自己的文件夹，请写出它的模型家族：&apos;requires: %4, %5</translation>
    </message>
    <message>
        <source>max_tokens (%1) must be between 1 and %2</source>
        <translation>max_tokens（%1）必须在 1 到 %2 之间</translation>
    </message>
    <message>
        <source>pad_to (%1) must be 0 (no padding) or a positive length</source>
        <translation>pad_to（%1）必须是 0（不填充）或正的长度</translation>
    </message>
    <message>
        <source>pad_to (%1) must not exceed max_tokens (%2)</source>
        <translation>pad_to（%1）不能超过 max_tokens（%2）</translation>
    </message>
    <message>
        <source>%1 attention is for one attention block and for seeded encoder stacks; this model uses full attention</source>
        <translation>%1 注意力只用于单个注意力块和随机种子编码器堆叠；这个模型使用完整注意力</translation>
    </message>
    <message>
        <source>linformer attention cannot use a causal mask: each projected key mixes every position, later ones included; use no mask or the padding mask</source>
        <translation>linformer 注意力不能使用因果掩码：每个投影后的键都混合了所有位置，包括后面的位置；请不用掩码或使用填充掩码</translation>
    </message>
    <message>
        <source>heads (%1) must be at least 1</source>
        <translation>头数（%1）至少为 1</translation>
    </message>
    <message>
        <source>d_model (%1) must be a multiple of heads (%2)</source>
        <translation>d_model（%1）必须是头数（%2）的倍数</translation>
    </message>
    <message>
        <source>attention needs at least one query and one key</source>
        <translation>注意力至少需要一个查询和一个键</translation>
    </message>
    <message>
        <source>the mask is %1 x %2 but must be %3 x %4 (queries x keys)</source>
        <translation>掩码是 %1 × %2，但必须是 %3 × %4（查询 × 键）</translation>
    </message>
    <message>
        <source>%1 queries times %2 keys times heads (%3) exceeds %4 attention cells: use fewer tokens or heads</source>
        <translation>%1 个查询乘 %2 个键再乘头数（%3）超过了 %4 个注意力单元格：请减少词元或头数</translation>
    </message>
    <message>
        <source>the attention inputs have %1 and %2 columns but the weights&apos; d_model is %3</source>
        <translation>注意力的输入有 %1 列和 %2 列，但权重的 d_model 是 %3</translation>
    </message>
    <message>
        <source>K and V (%1 wide) must hold a number of key/value heads of d_k = %2 that divides heads (%3)</source>
        <translation>K 和 V（宽 %1）必须由若干个 d_k = %2 的键/值头组成，且其个数能整除头数（%3）</translation>
    </message>
    <message>
        <source>the key/value heads (%1) must divide the query heads (%2)</source>
        <translation>键/值头数（%1）必须能整除查询头数（%2）</translation>
    </message>
    <message>
        <source>a score scale other than 1/√d_k (%1) is computed with full attention only</source>
        <translation>除 1/√d_k 以外的分数缩放（%1）只能用完整注意力计算</translation>
    </message>
    <message>
        <source>%1 attention takes no mask, a causal or a padding mask, not a custom one</source>
        <translation>%1 注意力只接受无掩码、因果掩码或填充掩码，不接受自定义掩码</translation>
    </message>
    <message>
        <source>%1 positions are for one attention block and for seeded models; a trained model keeps the positions it was trained with</source>
        <translation>%1 位置编码只用于单个注意力块和随机种子模型；训练好的模型保留它训练时用的位置编码</translation>
    </message>
    <message>
        <source>xl positions are causal by themselves (each segment sees its memory and the tokens up to itself); they take no mask, a causal or a padding mask, not a custom one</source>
        <translation>xl 位置编码本身就是因果的（每个片段只看到它的记忆和到它自己为止的词元）；它只接受无掩码、因果掩码或填充掩码，不接受自定义掩码</translation>
    </message>
    <message>
        <source>features (%1) must be between 1 and %2</source>
        <translation>特征数（%1）必须在 1 到 %2 之间</translation>
    </message>
</context>
<context>
    <name>attnlab::MultiHeadView</name>
    <message>
        <source>Shared colour scale</source>
        <translation>统一色标</translation>
    </message>
    <message>
        <source>Give every head the same colour range (the largest |value| over all heads), so colours compare across heads</source>
        <translation>让所有头使用同一颜色范围（取所有头中最大的 |值|），这样不同头之间的颜色可以直接比较</translation>
    </message>
    <message>
        <source>× W_Oᵀ + b_O
→</source>
        <translation>× W_Oᵀ + b_O
→</translation>
    </message>
    <message>
        <source>↓  × W_Oᵀ + b_O</source>
        <translation>↓  × W_Oᵀ + b_O</translation>
    </message>
    <message>
        <source>O = C·W_Oᵀ + b_O: the output projection mixes the heads&apos; features</source>
        <translation>O = C·W_Oᵀ + b_O：输出投影把各个头的特征混合在一起</translation>
    </message>
    <message>
        <source>Click to focus head %1</source>
        <translation>点击以聚焦头 %1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Concatenation C = [Z₁ | … | Z%1]: %2 × %3</source>
        <translation>拼接 C = [Z₁ | … | Z%1]：%2 × %3</translation>
    </message>
    <message>
        <source>Output O = C·W_Oᵀ + b_O: %1 × %2</source>
        <translation>输出 O = C·W_Oᵀ + b_O：%1 × %2</translation>
    </message>
    <message>
        <source>Each head&apos;s output Z (%1 × %2) is placed side by side, in head order: C is %1 × %3. The output projection W_O then mixes the heads&apos; features into O. Click a block to focus its head.</source>
        <translation>各个头的输出 Z（%1 × %2）按头的顺序并排拼接：C 的形状为 %1 × %3。随后输出投影 W_O 把各个头的特征混合成 O。点击某一块即可聚焦对应的头。</translation>
    </message>
    <message>
        <source>%1 for each of the %2 heads (d_k = %3).</source>
        <translation>%2 个头各自的%1（d_k = %3）。</translation>
    </message>
    <message>
        <source>Click a head to focus it.</source>
        <translation>点击某个头即可聚焦它。</translation>
    </message>
</context>
<context>
    <name>attnlab::PositionalEncodingView</name>
    <message>
        <source>Transformer-XL adds nothing to X: P is all zeros. The input is cut into segments; each attends its own tokens and a memory of the rows before it, with scores built from the distances i − j.</source>
        <translation>Transformer-XL 不往 X 上加任何东西：P 全为零。输入被切成若干段；每段关注自己的词元和它之前若干行的记忆，分数由距离 i − j 构成。</translation>
    </message>
    <message>
        <source>Relative positions add nothing to X: P is all zeros. Position enters inside attention: each score gets q_i·a^K for the distance j − i, and each output the values a^V of the distances it attends, clipped to [−K, K].</source>
        <translation>相对位置不往 X 上加任何东西：P 全为零。位置在注意力内部进入：每个分数加上距离 j − i 对应的 q_i·a^K，每个输出加上它所关注的各个距离的值 a^V，距离截断到 [−K, K]。</translation>
    </message>
    <message>
        <source>Part of the trained model: it learned its weights with these positions</source>
        <translation>这是训练好的模型本身的一部分：它的权重就是在这种位置编码下学出来的</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>编码方式：</translation>
    </message>
    <message>
        <source>sinusoidal (sin/cos)</source>
        <translation>正弦（sin/cos）</translation>
    </message>
    <message>
        <source>learned (seeded table)</source>
        <translation>可学习（随机初始化的表）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>How positions are added to the token embeddings: X = E·√d_model + P</source>
        <translation>位置信息如何加到词元嵌入上：X = E·√d_model + P</translation>
    </message>
    <message>
        <source>Curves for dimensions:</source>
        <translation>绘制曲线的维度：</translation>
    </message>
    <message>
        <source>Dimension numbers separated by commas, e.g. 1, 2, 9, 17 (at most %1)</source>
        <translation>用逗号分隔的维度编号，例如 1, 2, 9, 17（最多 %1 个）</translation>
    </message>
    <message>
        <source>Columns of P across positions</source>
        <translation>P 的各列随位置的变化</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>PE value</source>
        <translation>PE 值</translation>
    </message>
    <message>
        <source>Positional encoding P: %1 positions × %2 dimensions</source>
        <translation>位置编码 P：%1 个位置 × %2 个维度</translation>
    </message>
    <message>
        <source>Similarity P·Pᵀ of every position with every other</source>
        <translation>各位置两两之间的相似度 P·Pᵀ</translation>
    </message>
    <message>
        <source>Showing %1 positions (1–%2) × %3 dimensions. The sentence&apos;s %4 tokens are the first %4 rows (above the dashed line); the rest show how the pattern continues.</source>
        <translation>显示 %1 个位置（1–%2）× %3 个维度。句子的 %4 个词元对应前 %4 行（虚线以上）；其余各行展示这一模式如何延续下去。</translation>
    </message>
    <message>
        <source>Showing the sentence&apos;s %1 positions × %2 dimensions.</source>
        <translation>显示句子的 %1 个位置 × %2 个维度。</translation>
    </message>
    <message>
        <source>Each pair of columns is a sine and a cosine: low dimensions oscillate fast, high ones slowly, so every position gets its own code and nearby positions get similar codes (the dark band along the diagonal of P·Pᵀ).</source>
        <translation>每两列是一对正弦和余弦：低维振荡得快，高维振荡得慢，因此每个位置都有自己独特的编码，而相邻位置的编码彼此相似（即 P·Pᵀ 对角线上的深色带）。</translation>
    </message>
    <message>
        <source>A learned table starts as seeded random numbers, as BERT&apos;s does before training: it has no notion of distance yet, so nearby positions are no more alike than distant ones.</source>
        <translation>可学习的位置表一开始是由随机种子生成的随机数，和 BERT 训练之前一样：它还没有距离的概念，所以相邻位置并不比相距很远的位置更相似。</translation>
    </message>
    <message>
        <source>No positional encoding: P is all zeros, so X = E·√d_model and attention cannot tell word order — reordering the words only reorders the rows of every result.</source>
        <translation>没有位置编码：P 全为零，所以 X = E·√d_model，注意力无法分辨词序——调换词的顺序只会调换每个结果中各行的顺序。</translation>
    </message>
    <message>
        <source>No positional encoding: P is all zeros, so X = E and attention cannot tell word order — reordering the words only reorders the rows of every result.</source>
        <translation>没有位置编码：P 全为零，所以 X = E，注意力无法分辨词序——调换词的顺序只会调换每个结果中各行的顺序。</translation>
    </message>
    <message>
        <source>P = 0 everywhere:
no position information</source>
        <translation>P 处处为 0：
没有位置信息</translation>
    </message>
    <message>
        <source>P·Pᵀ = 0:
every position looks the same</source>
        <translation>P·Pᵀ = 0：
所有位置看起来都一样</translation>
    </message>
    <message>
        <source>dim %1 (learned)</source>
        <translation>维度 %1（可学习）</translation>
    </message>
    <message>
        <source>dim %1 (P = 0)</source>
        <translation>维度 %1（P = 0）</translation>
    </message>
    <message>
        <source>dim %1 (%2, i=%3), period %4</source>
        <translation>维度 %1（%2，i=%3），周期 %4</translation>
    </message>
    <message>
        <source>Type at least one dimension number (1 to %1).</source>
        <translation>请至少输入一个维度编号（1 到 %1）。</translation>
    </message>
    <message>
        <source>“%1” is not a dimension: type numbers from 1 to %2 separated by commas.</source>
        <translation>“%1”不是有效的维度：请输入 1 到 %2 之间的数字，用逗号分隔。</translation>
    </message>
    <message>
        <source>There is no dimension %1: d_model is %2, so dimensions run from 1 to %2.</source>
        <translation>不存在维度 %1：d_model 为 %2，所以维度编号为 1 到 %2。</translation>
    </message>
    <message>
        <source>Showing the first %1 dimensions.</source>
        <translation>显示前 %1 个维度。</translation>
    </message>
    <message>
        <source>sentence (%1 tokens)</source>
        <translation>句子（%1 个词元）</translation>
    </message>
    <message>
        <source>RoPE adds nothing to X: P is all zeros. Position enters inside attention, where each head&apos;s q and k are rotated pair by pair by an angle that grows with the position, so q_m·k_n depends on m − n only.</source>
        <translation>RoPE 不往 X 上加任何东西：P 全为零。位置在注意力内部起作用：每个头的 q 和 k 按维度两两一组旋转，旋转角随位置增大，因此 q_m·k_n 只取决于 m − n。</translation>
    </message>
    <message>
        <source>ALiBi adds nothing to X: P is all zeros. Position enters the scores instead: each head adds −m_h·|i − j|, a penalty that grows with the distance between query and key.</source>
        <translation>ALiBi 不往 X 上加任何东西：P 全为零。位置改为进入分数：每个头加上 −m_h·|i − j|，查询与键相距越远，惩罚越大。</translation>
    </message>
</context>
<context>
    <name>attnlab::PresenterMode</name>
    <message>
        <source>Automatic (another screen than the controls&apos;)</source>
        <translation>自动（控制面板所在屏幕以外的另一块屏幕）</translation>
    </message>
    <message>
        <source>Screen %1: %2 (%3 × %4)</source>
        <translation>屏幕 %1：%2（%3 × %4）</translation>
    </message>
    <message>
        <source>Step %1 / %2</source>
        <translation>步骤 %1 / %2</translation>
    </message>
    <message>
        <source>Stage %1 / %2</source>
        <translation>阶段 %1 / %2</translation>
    </message>
</context>
<context>
    <name>attnlab::Session</name>
    <message>
        <source>Mask file %1: %2</source>
        <translation>掩码文件 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open session %1: %2</source>
        <translation>无法打开会话 %1：%2</translation>
    </message>
    <message>
        <source>there is no Transformer to save: choose a model in the settings</source>
        <translation>没有可保存的 Transformer：请在设置中选择一个模型</translation>
    </message>
</context>
<context>
    <name>attnlab::SettingsPanel</name>
    <message>
        <source>M: each segment also attends the M rows before it (its memory)</source>
        <translation>M：每段还会关注它之前的 M 行（它的记忆）</translation>
    </message>
    <message>
        <source>= L</source>
        <translation>= L</translation>
    </message>
    <message>
        <source>Memory M</source>
        <translation>记忆 M</translation>
    </message>
    <message>
        <source>L: Transformer-XL cuts the input into segments of L tokens</source>
        <translation>L：Transformer-XL 把输入切成每段 L 个词元</translation>
    </message>
    <message>
        <source>Segment L</source>
        <translation>段长 L</translation>
    </message>
    <message>
        <source>Transformer-XL (segments)</source>
        <translation>Transformer-XL（分段）</translation>
    </message>
    <message>
        <source>K: keys further than K positions away share the same learned key and value (j − i is clipped to [−K, K])</source>
        <translation>K：距离超过 K 个位置的键共用同一个学到的键向量和值向量（j − i 被截断到 [−K, K]）</translation>
    </message>
    <message>
        <source>Max distance K</source>
        <translation>最大距离 K</translation>
    </message>
    <message>
        <source>B in θ_pos,i = pos / B^(2i/d_k): a larger base turns the slow pairs more slowly</source>
        <translation>θ_pos,i = pos / B^(2i/d_k) 中的 B：底数越大，慢的维度对转得越慢</translation>
    </message>
    <message>
        <source>RoPE base B</source>
        <translation>RoPE 底数 B</translation>
    </message>
    <message>
        <source>relative (Shaw)</source>
        <translation>相对位置（Shaw）</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Open mask file…</source>
        <translation>打开掩码文件…</translation>
    </message>
    <message>
        <source>Width of every token vector</source>
        <translation>每个词元向量的宽度（维数）</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Only divisors of d_model are offered: every head gets d_model / heads dimensions</source>
        <translation>只提供 d_model 的约数：每个头分到 d_model / 头数 个维度</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Seed of the embedding table, the learned positions and the seeded weights</source>
        <translation>嵌入表、可学习位置编码和随机初始化权重所用的随机种子</translation>
    </message>
    <message>
        <source>Part of the trained model: it learned its weights with these, so they cannot change here</source>
        <translation>这是训练好的模型本身的一部分：它的权重就是在这些设置下学出来的，所以这里不能改</translation>
    </message>
    <message>
        <source>How a token&apos;s position is added to its embedding (X = E + P)</source>
        <translation>词元的位置信息如何加到它的嵌入上（X = E + P）</translation>
    </message>
    <message>
        <source>Multiply the embeddings by √d_model before adding the positions, as the paper does</source>
        <translation>加上位置编码之前先把嵌入乘以 √d_model，与论文一致</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>causal (look-ahead)</source>
        <translation>因果（前瞻）</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>causal + padding</source>
        <translation>因果 + 填充</translation>
    </message>
    <message>
        <source>custom (from a file)</source>
        <translation>自定义（来自文件）</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Append &lt;pad&gt; tokens up to this length</source>
        <translation>追加 &lt;pad&gt; 词元，直到达到此长度</translation>
    </message>
    <message>
        <source>Pad to</source>
        <translation>填充到</translation>
    </message>
    <message>
        <source>seeded (Xavier)</source>
        <translation>随机初始化（Xavier）</translation>
    </message>
    <message>
        <source>identity (W = I)</source>
        <translation>单位矩阵（W = I）</translation>
    </message>
    <message>
        <source>from file</source>
        <translation>来自文件</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Weights from %1 (d_model %2)</source>
        <translation>权重来自 %1（d_model %2）</translation>
    </message>
    <message>
        <source>the session file</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <source>d_k = %1</source>
        <translation>d_k = %1</translation>
    </message>
    <message>
        <source>Scale embeddings by √d_model</source>
        <translation>嵌入乘以 √d_model</translation>
    </message>
    <message>
        <source>Divide scores by √d_k</source>
        <translation>分数除以 √d_k</translation>
    </message>
    <message>
        <source>one attention block</source>
        <translation>单个注意力块</translation>
    </message>
    <message>
        <source>Transformer: trained (reversal)</source>
        <translation>Transformer：已训练（字符串反转）</translation>
    </message>
    <message>
        <source>Transformer: seeded weights</source>
        <translation>Transformer：随机初始化权重</translation>
    </message>
    <message>
        <source>Transformer: from file…</source>
        <translation>Transformer：来自文件…</translation>
    </message>
    <message>
        <source>A trained or seeded encoder–decoder adds Add &amp; Norm, the feed-forward network, stacked layers, cross-attention and generation</source>
        <translation>训练好的或随机初始化的编码器-解码器会加入 Add &amp; Norm、前馈网络、多层堆叠、交叉注意力和生成</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Encoder layers and decoder layers (as many of each)</source>
        <translation>编码器层数和解码器层数（两者相同）</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>4 × d_model</source>
        <translation>4 × d_model</translation>
    </message>
    <message>
        <source>Hidden width of the feed-forward network</source>
        <translation>前馈网络隐藏层的宽度</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>Post-LN (the paper)</source>
        <translation>Post-LN（原论文）</translation>
    </message>
    <message>
        <source>Pre-LN</source>
        <translation>Pre-LN</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>%1: %2 encoder + %3 decoder layers, d_model %4, %5 heads, d_ff %6</source>
        <translation>%1：%2 个编码器层 + %3 个解码器层，d_model %4，%5 个头，d_ff %6</translation>
    </message>
    <message>
        <source>Seeded weights: the numbers are right, the patterns random. It cannot generate; type a target.</source>
        <translation>随机初始化的权重：数值都是对的，但图案是随机的。它无法生成，请输入目标序列。</translation>
    </message>
    <message>
        <source>The trained reversal model</source>
        <translation>训练好的字符串反转模型</translation>
    </message>
    <message>
        <source>How a token&apos;s position enters: added to its embedding (X = E + P: sinusoidal, learned), or inside attention (RoPE turns q and k, ALiBi biases the scores, relative positions add a learned key and value per distance, Transformer-XL attends segment by segment with a memory)</source>
        <translation>词元的位置如何进入模型：加到嵌入上（X = E + P：正弦、可学习），或者在注意力内部（RoPE 旋转 q 和 k，ALiBi 给分数加偏置，相对位置按距离加上学到的键和值，Transformer-XL 带着记忆逐段计算注意力）</translation>
    </message>
    <message>
        <source>RoPE (rotary)</source>
        <translation>RoPE（旋转）</translation>
    </message>
    <message>
        <source>ALiBi (linear biases)</source>
        <translation>ALiBi（线性偏置）</translation>
    </message>
    <message>
        <source>Adds a term to every query–key score, which only full attention computes: choose full attention first</source>
        <translation>它给每个查询–键分数加上一项，只有完全注意力会计算全部分数：请先选择完全注意力</translation>
    </message>
    <message>
        <source>GPT-2's activation (GELU's tanh approximation): shown for an opened GPT-2</source>
        <translation>GPT-2 的激活函数（GELU 的 tanh 近似）：打开 GPT-2 时显示</translation>
    </message>
    <message>
        <source>%1 (%2): %3 layers, d_model %4, %5 query heads sharing %6 key/value heads of %7, d_ff %8; RMSNorm, %9, RoPE inside attention</source>
        <translation>%1（%2）：%3 层，d_model %4，%5 个查询头共用 %6 个键/值头（每头 %7 维），d_ff %8；RMSNorm、%9、注意力内部的 RoPE</translation>
    </message>
</context>
<context>
    <name>attnlab::SoftmaxScalingView</name>
    <message>
        <source>d_k = %1</source>
        <translation>d_k = %1</translation>
    </message>
    <message>
        <source>Without scaling: softmax(q·k_j)
scores from %1 to %2, largest weight %3</source>
        <translation>不缩放：softmax(q·k_j)
分数从 %1 到 %2，最大权重 %3</translation>
    </message>
    <message>
        <source>With scaling: softmax(q·k_j / √d_k), √d_k = %1
scores from %2 to %3, largest weight %4</source>
        <translation>缩放：softmax(q·k_j / √d_k)，√d_k = %1
分数从 %2 到 %3，最大权重 %4</translation>
    </message>
    <message>
        <source>Why divide by √d_k? When q and k have d_k random components of variance 1, the score q·k is a sum of d_k such products, so its variance grows like d_k: for large d_k the scores lie tens apart, softmax saturates (one weight ≈ 1, the rest ≈ 0) and its gradients vanish. Dividing the scores by √d_k brings their variance back to 1 for every d_k, so the weights stay soft.</source>
        <translation>为什么要除以 √d_k？当 q 和 k 各有 d_k 个方差为 1 的随机分量时，分数 q·k 是 d_k 个这样的乘积之和，其方差与 d_k 成正比：d_k 很大时，分数之间相差几十，softmax 进入饱和（一个权重 ≈ 1，其余 ≈ 0），梯度也随之消失。把分数除以 √d_k 后，无论 d_k 取多少，方差都回到 1，权重分布也就保持平缓。</translation>
    </message>
    <message>
        <source>Key dimension d_k:</source>
        <translation>键的维度 d_k：</translation>
    </message>
    <message>
        <source>d_k = 4, 16, 64, 256 or 1024</source>
        <translation>d_k = 4、16、64、256 或 1024</translation>
    </message>
    <message>
        <source>key j</source>
        <translation>键 j</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Variance of the score over %1 random pairs (q, k)</source>
        <translation>%1 对随机 (q, k) 上分数的方差</translation>
    </message>
    <message>
        <source>Var(q·k)</source>
        <translation>Var(q·k)</translation>
    </message>
    <message>
        <source>Var(q·k / √d_k)</source>
        <translation>Var(q·k / √d_k)</translation>
    </message>
    <message>
        <source>d_k (theory)</source>
        <translation>d_k（理论值）</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>variance</source>
        <translation>方差</translation>
    </message>
    <message>
        <source>Largest weight of a row of %1 keys</source>
        <translation>一行 %1 个键中的最大权重</translation>
    </message>
    <message>
        <source>without scaling (mean of %1 rows)</source>
        <translation>不缩放（%1 行的平均值）</translation>
    </message>
    <message>
        <source>with ÷√d_k (mean of %1 rows)</source>
        <translation>÷√d_k 缩放（%1 行的平均值）</translation>
    </message>
    <message>
        <source>without scaling (the row above)</source>
        <translation>不缩放（上面那一行）</translation>
    </message>
    <message>
        <source>with ÷√d_k (the row above)</source>
        <translation>÷√d_k 缩放（上面那一行）</translation>
    </message>
    <message>
        <source>uniform 1/n</source>
        <translation>均匀 1/n</translation>
    </message>
    <message>
        <source>largest weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
</context>
<context>
    <name>attnlab::StageNavigator</name>
    <message numerus="yes">
        <source>%n s per step</source>
        <translation>
            <numerusform>每步 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一阶段</translation>
    </message>
    <message>
        <source>Previous stage (←, PageUp)</source>
        <translation>上一阶段（←、PageUp）</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一阶段 ▶</translation>
    </message>
    <message>
        <source>Next stage (→, Space, PageDown)</source>
        <translation>下一阶段（→、空格、PageDown）</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Auto-play</source>
        <translation>自动播放</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源序列</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标序列</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Encoder layer %1</source>
        <translation>编码器第 %1 层</translation>
    </message>
    <message>
        <source>Decoder layer %1</source>
        <translation>解码器第 %1 层</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Feed-forward network</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Input X = E</source>
        <translation>输入 X = E</translation>
    </message>
    <message>
        <source>Input X = E·√d</source>
        <translation>输入 X = E·√d</translation>
    </message>
</context>
<context>
    <name>attnlab::StageView</name>
    <message>
        <source>Same colour scale for all heads</source>
        <translation>所有头使用统一色标</translation>
    </message>
    <message>
        <source>Compare heads fairly: one colour range for every head of this stage</source>
        <translation>公平比较各个头：本阶段的所有头使用同一颜色范围</translation>
    </message>
    <message>
        <source> — head %1</source>
        <translation> — 头 %1</translation>
    </message>
    <message>
        <source>%1: %2 × %3</source>
        <translation>%1：%2 × %3</translation>
    </message>
    <message>
        <source>One colour scale for Q·Kᵀ, ÷√d_k and + M</source>
        <translation>Q·Kᵀ、÷√d_k 与 + M 使用同一色标</translation>
    </message>
    <message>
        <source>Scores, scaled scores and masked scores on one colour range (the largest |value| of the three), so dividing by √d_k shows as paler colours</source>
        <translation>分数、缩放后的分数和加掩码后的分数使用同一颜色范围（取三者中最大的 |值|），这样除以 √d_k 的效果会显示为更浅的颜色</translation>
    </message>
    <message>
        <source>No mask
M = 0: every query sees every key</source>
        <translation>没有掩码
M = 0：每个查询都能看到所有键</translation>
    </message>
    <message>
        <source>L1 distance to full attention&apos;s row (0 … 2)</source>
        <translation>与完全注意力那一行的 L1 距离（0 … 2）</translation>
    </message>
    <message>
        <source>D_i = φ(q_i)·Σ_j φ(k_j)</source>
        <translation>D_i = φ(q_i)·Σ_j φ(k_j)</translation>
    </message>
    <message>
        <source>L1 distance to full attention&apos;s row</source>
        <translation>与完全注意力那一行的 L1 距离</translation>
    </message>
</context>
<context>
    <name>attnlab::Stages</name>
    <message>
        <source>X = E  (P = 0)</source>
        <translation>X = E  （P = 0）</translation>
    </message>
    <message>
        <source>the first segment has no memory: M_τ = min(M, τ·L) rows</source>
        <translation>第一段没有记忆：M_τ = min(M, τ·L) 行</translation>
    </message>
    <message>
        <source>Nothing is added to the embeddings here: this scheme puts position inside attention, into q and k or into the scores, where only the distance between two tokens counts.</source>
        <translation>这里不往嵌入上加任何东西：这种方案把位置放进注意力内部——放进 q 和 k，或放进分数——在那里只有两个词元之间的距离起作用。</translation>
    </message>
    <message>
        <source>A_h = softmax(((a) + (b) + (c) + (d)) / √d_k + M)</source>
        <translation>A_h = softmax(((a) + (b) + (c) + (d)) / √d_k + M)</translation>
    </message>
    <message>
        <source>A_h = softmax(Q̃_h·K̃_hᵀ / √d_k + M)</source>
        <translation>A_h = softmax(Q̃_h·K̃_hᵀ / √d_k + M)</translation>
    </message>
    <message>
        <source>A_h = softmax((Q_h·K_hᵀ + P_h) / √d_k + M)</source>
        <translation>A_h = softmax((Q_h·K_hᵀ + P_h) / √d_k + M)</translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K_hᵀ / √d_k + B_h + M)</source>
        <translation>A_h = softmax(Q_h·K_hᵀ / √d_k + B_h + M)</translation>
    </message>
    <message>
        <source>P = 0: position enters inside attention instead</source>
        <translation>P = 0：位置改在注意力内部进入</translation>
    </message>
    <message>
        <source>(d) a global preference for some distances, the same for every query (constant along each diagonal).</source>
        <translation>(d) 对某些距离的全局偏好，对每个查询都一样（沿每条对角线不变）。</translation>
    </message>
    <message>
        <source>(c) a global preference for some keys&apos; content, the same for every query (one value per column).</source>
        <translation>(c) 对某些键内容的全局偏好，对每个查询都一样（每列一个值）。</translation>
    </message>
    <message>
        <source>(b) content against distance: how much this query likes keys i − j positions back.</source>
        <translation>(b) 内容对距离：这个查询有多“喜欢”往回 i − j 个位置的键。</translation>
    </message>
    <message>
        <source>(a) content against content: the usual q·k, over the memory and the segment.</source>
        <translation>(a) 内容对内容：通常的 q·k，覆盖记忆和本段。</translation>
    </message>
    <message>
        <source>The rows of the input just before this segment: its keys and values include them, so attention reaches back past the segment&apos;s start.</source>
        <translation>紧挨在本段之前的输入行：本段的键和值包含它们，所以注意力能越过段的开头往回看。</translation>
    </message>
    <message>
        <source>Two learned vectors per head in place of the query: u scores a key&apos;s content, v a distance, the same for every query.</source>
        <translation>每个头两个学到的向量代替查询：u 给键的内容打分，v 给距离打分，对每个查询都一样。</translation>
    </message>
    <message>
        <source>Transformer-XL adds no position vector: each head turns the sinusoid of a distance i − j into a d_k-vector with W_R.</source>
        <translation>Transformer-XL 不加位置向量：每个头用 W_R 把距离 i − j 的正弦编码变成一个 d_k 维向量。</translation>
    </message>
    <message>
        <source>M_ij = −∞ for a key after the query (every memory row is before it)</source>
        <translation>查询之后的键 M_ij = −∞（记忆行都在它之前）</translation>
    </message>
    <message>
        <source>S_h = (a) + (b) + (c) + (d)</source>
        <translation>S_h = (a) + (b) + (c) + (d)</translation>
    </message>
    <message>
        <source>(d)_ij = v·W_R R_{i−j}</source>
        <translation>(d)_ij = v·W_R R_{i−j}</translation>
    </message>
    <message>
        <source>(c)_ij = u·k_j</source>
        <translation>(c)_ij = u·k_j</translation>
    </message>
    <message>
        <source>(b)_ij = q_i·W_R R_{i−j}</source>
        <translation>(b)_ij = q_i·W_R R_{i−j}</translation>
    </message>
    <message>
        <source>(a)_ij = q_i·k_j</source>
        <translation>(a)_ij = q_i·k_j</translation>
    </message>
    <message>
        <source>K_h, V_h = [Mem_τ; X_τ]·Wᵀ + b  (memory rows first)</source>
        <translation>K_h, V_h = [Mem_τ; X_τ]·Wᵀ + b  （记忆行在前）</translation>
    </message>
    <message>
        <source>Mem_τ = X[s − M_τ … s − 1],  M_τ = min(M, s),  L = %1, M = %2</source>
        <translation>Mem_τ = X[s − M_τ … s − 1]，M_τ = min(M, s)，L = %1，M = %2</translation>
    </message>
    <message>
        <source>u_h, v_h: 1 × d_k, the same for every query</source>
        <translation>u_h、v_h：1 × d_k，对每个查询都一样</translation>
    </message>
    <message>
        <source>W_R,h: d_k × d_model, projects the sinusoid R_{i−j} of a distance</source>
        <translation>W_R,h：d_k × d_model，把距离的正弦编码 R_{i−j} 投影过来</translation>
    </message>
    <message>
        <source>Content bias (c)</source>
        <translation>内容偏置 (c)</translation>
    </message>
    <message>
        <source>Content scores (a)</source>
        <translation>内容分数 (a)</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Distance bias v</source>
        <translation>距离偏置 v</translation>
    </message>
    <message>
        <source>Content bias u</source>
        <translation>内容偏置 u</translation>
    </message>
    <message>
        <source>Distance projection W_R</source>
        <translation>距离投影 W_R</translation>
    </message>
    <message>
        <source>How much each query likes the distance to each key: q_i·aᴷ for the clipped j − i, added to q_i·k_j before the scaling.</source>
        <translation>每个查询对到每个键的距离有多“喜欢”：截断后的 j − i 对应的 q_i·aᴷ，在缩放之前加到 q_i·k_j 上。</translation>
    </message>
    <message>
        <source>One learned value per distance: each output also gets the values of the distances it attends, weighted like the tokens&apos; values.</source>
        <translation>每个距离一个学到的值向量：每个输出还会加上它所关注的各个距离的值，权重与词元的值相同。</translation>
    </message>
    <message>
        <source>One learned key per distance j − i, shared by every head: a query scores how far a key is, not where it stands; beyond K every distance looks the same.</source>
        <translation>每个距离 j − i 一个学到的键向量，所有头共用：查询看的是键离它多远，而不是键在哪里；超过 K 的距离都一样。</translation>
    </message>
    <message>
        <source>,  rows = distances j − i, columns = d_k</source>
        <translation>，行 = 距离 j − i，列 = d_k</translation>
    </message>
    <message>
        <source>z_i = Σ_j α_ij·(v_j + aⱽ_clip(j−i))</source>
        <translation>z_i = Σ_j α_ij·(v_j + aⱽ_clip(j−i))</translation>
    </message>
    <message>
        <source>S_h = Q_h·K_hᵀ + P_h</source>
        <translation>S_h = Q_h·K_hᵀ + P_h</translation>
    </message>
    <message>
        <source>P_h,ij = q_i·aᴷ_clip(j−i)</source>
        <translation>P_h,ij = q_i·aᴷ_clip(j−i)</translation>
    </message>
    <message>
        <source>row r holds distance j − i = r − K,  clipped to [−K, K],  K = %1</source>
        <translation>第 r 行对应距离 j − i = r − K，截断到 [−K, K]，K = %1</translation>
    </message>
    <message>
        <source>Position scores P</source>
        <translation>位置分数 P</translation>
    </message>
    <message>
        <source>Relative values aⱽ</source>
        <translation>相对位置值 aⱽ</translation>
    </message>
    <message>
        <source>Relative keys aᴷ</source>
        <translation>相对位置键 aᴷ</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Input X = E + P</source>
        <translation>输入 X = E + P</translation>
    </message>
    <message>
        <source>Queries Q</source>
        <translation>查询 Q</translation>
    </message>
    <message>
        <source>Keys K</source>
        <translation>键 K</translation>
    </message>
    <message>
        <source>Values V</source>
        <translation>值 V</translation>
    </message>
    <message>
        <source>Scores Q·Kᵀ</source>
        <translation>分数 Q·Kᵀ</translation>
    </message>
    <message>
        <source>Mask M</source>
        <translation>掩码 M</translation>
    </message>
    <message>
        <source>Masked scores</source>
        <translation>掩码后的分数</translation>
    </message>
    <message>
        <source>Softmax → weights A</source>
        <translation>Softmax → 权重 A</translation>
    </message>
    <message>
        <source>Head output A·V</source>
        <translation>头输出 A·V</translation>
    </message>
    <message>
        <source>Concatenate heads</source>
        <translation>拼接各头</translation>
    </message>
    <message>
        <source>Output ·W_O</source>
        <translation>输出 ·W_O</translation>
    </message>
    <message>
        <source>sentence → tokens t₁ … tₙ</source>
        <translation>句子 → 词元 t₁ … tₙ</translation>
    </message>
    <message>
        <source>E = Embed(tokens)</source>
        <translation>E = Embed(tokens)</translation>
    </message>
    <message>
        <source>PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))</source>
        <translation>PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))</translation>
    </message>
    <message>
        <source>X = E + P</source>
        <translation>X = E + P</translation>
    </message>
    <message>
        <source>Q_h = X·W_Q,hᵀ + b_Q,h</source>
        <translation>Q_h = X·W_Q,hᵀ + b_Q,h</translation>
    </message>
    <message>
        <source>K_h = X·W_K,hᵀ + b_K,h</source>
        <translation>K_h = X·W_K,hᵀ + b_K,h</translation>
    </message>
    <message>
        <source>V_h = X·W_V,hᵀ + b_V,h</source>
        <translation>V_h = X·W_V,hᵀ + b_V,h</translation>
    </message>
    <message>
        <source>S_h = Q_h·K_hᵀ</source>
        <translation>S_h = Q_h·K_hᵀ</translation>
    </message>
    <message>
        <source>S′_h = Q_h·K_hᵀ   (scaling switched off)</source>
        <translation>S′_h = Q_h·K_hᵀ（已关闭缩放）</translation>
    </message>
    <message>
        <source>M_ij = −∞ if key j is hidden from query i, else 0</source>
        <translation>若键 j 对查询 i 不可见，则 M_ij = −∞，否则为 0</translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K_hᵀ + M)</source>
        <translation>A_h = softmax(Q_h·K_hᵀ + M)</translation>
    </message>
    <message>
        <source>Z_h = A_h·V_h</source>
        <translation>Z_h = A_h·V_h</translation>
    </message>
    <message>
        <source>C = [Z_1 | Z_2 | … | Z_h]</source>
        <translation>C = [Z_1 | Z_2 | … | Z_h]</translation>
    </message>
    <message>
        <source>O = C·W_Oᵀ + b_O</source>
        <translation>O = C·W_Oᵀ + b_O</translation>
    </message>
    <message>
        <source>n = %1 tokens</source>
        <translation>n = %1 个词元</translation>
    </message>
    <message>
        <source>,  rows = queries, columns = keys</source>
        <translation>，行 = 查询，列 = 键</translation>
    </message>
    <message>
        <source>%1 heads × </source>
        <translation>%1 个头 × </translation>
    </message>
    <message>
        <source>The sentence is cut into tokens: words and punctuation, one token per Chinese character.</source>
        <translation>句子被切分成词元：单词和标点各算一个词元，每个汉字也是一个词元。</translation>
    </message>
    <message>
        <source>Each token looks up its own vector in an embedding table: the same word always gets the same vector.</source>
        <translation>每个词元在嵌入表中查出自己的向量：同一个词总是得到同一个向量。</translation>
    </message>
    <message>
        <source>Attention itself ignores order, so each position gets a pattern of sines and cosines of different frequencies.</source>
        <translation>注意力本身不考虑顺序，因此每个位置都会得到一组由不同频率的正弦和余弦构成的编码。</translation>
    </message>
    <message>
        <source>Attention itself ignores order, so each position looks up a vector of its own in a position table learned with the model, as BERT does (here seeded: random until trained).</source>
        <translation>注意力本身不考虑顺序，因此每个位置从一张随模型一起学习的位置表里查出自己的向量，BERT 就是这样做的（这里是随机初始化的，训练之前没有规律）。</translation>
    </message>
    <message>
        <source>No positional encoding: attention sees the tokens as a set — reorder them and every output is only reordered.</source>
        <translation>没有位置编码：注意力把词元看成一个集合——打乱它们的顺序，每个输出也只是跟着换了位置。</translation>
    </message>
    <message>
        <source>P[pos] = row pos of a learned position table (d_model wide)</source>
        <translation>P[pos] = 可学习位置表的第 pos 行（宽 d_model）</translation>
    </message>
    <message>
        <source>P = 0: no positional encoding</source>
        <translation>P = 0：没有位置编码</translation>
    </message>
    <message>
        <source>The input of attention is the embedding plus the position: what the word is and where it stands.</source>
        <translation>注意力的输入是嵌入加上位置编码：既表示这个词是什么，也表示它在什么位置。</translation>
    </message>
    <message>
        <source>A query says what a token is looking for.</source>
        <translation>查询表示一个词元在寻找什么。</translation>
    </message>
    <message>
        <source>A key says what a token offers, to be matched against the queries.</source>
        <translation>键表示一个词元能提供什么，用来与查询进行匹配。</translation>
    </message>
    <message>
        <source>A value is what a token hands over when it is attended to.</source>
        <translation>值是一个词元被关注时所传递出去的内容。</translation>
    </message>
    <message>
        <source>Every query is compared with every key by a dot product: large means a good match.</source>
        <translation>每个查询都通过点积与每个键进行比较：点积越大，匹配得越好。</translation>
    </message>
    <message>
        <source>The mask hides keys a query may not see: future tokens (causal) or &lt;pad&gt; tokens (padding). −∞ becomes exactly 0 after the softmax.</source>
        <translation>掩码遮住查询不应看到的键：未来的词元（因果掩码）或 &lt;pad&gt; 词元（填充掩码）。−∞ 经过 softmax 后恰好变为 0。</translation>
    </message>
    <message>
        <source>Adding the mask turns hidden scores into −∞.</source>
        <translation>加上掩码后，被遮住的分数变为 −∞。</translation>
    </message>
    <message>
        <source>Softmax turns each row of scores into probabilities: every row sums to 1.</source>
        <translation>Softmax 把每一行分数变成概率：每行之和为 1。</translation>
    </message>
    <message>
        <source>Each token&apos;s output is the weighted sum of the values, with the attention weights as weights.</source>
        <translation>每个词元的输出是各个值的加权和，所用的权重就是注意力权重。</translation>
    </message>
    <message>
        <source>The heads&apos; outputs are placed side by side: each head contributes d_k columns.</source>
        <translation>各个头的输出并排拼接在一起：每个头贡献 d_k 列。</translation>
    </message>
    <message>
        <source>A last projection W_O mixes the heads back into one d_model-wide vector per token.</source>
        <translation>最后由投影 W_O 把各个头重新混合，每个词元得到一个宽度为 d_model 的向量。</translation>
    </message>
    <message>
        <source>Scaled ÷ √d_k</source>
        <translation>缩放 ÷ √d_k</translation>
    </message>
    <message>
        <source>E = Embed(tokens),  scaled by √d_model</source>
        <translation>E = Embed(词元)，乘以 √d_model</translation>
    </message>
    <message>
        <source>X = E·√d_model + P</source>
        <translation>X = E·√d_model + P</translation>
    </message>
    <message>
        <source>S′_h = Q_h·K_hᵀ / √d_k</source>
        <translation>S′_h = Q_h·K_hᵀ / √d_k</translation>
    </message>
    <message>
        <source>S″_h = Q_h·K_hᵀ / √d_k + M</source>
        <translation>S″_h = Q_h·K_hᵀ / √d_k + M</translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K_hᵀ / √d_k + M)</source>
        <translation>A_h = softmax(Q_h·K_hᵀ / √d_k + M)</translation>
    </message>
    <message>
        <source>Dot products grow with d_k; dividing by √d_k keeps their spread near 1 so the softmax does not saturate.</source>
        <translation>点积随 d_k 增大而变大；除以 √d_k 能让它们的离散程度保持在 1 附近，softmax 就不会饱和。</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention (masked)</source>
        <translation>解码器自注意力（带掩码）</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源序列</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标序列</translation>
    </message>
    <message>
        <source>encoder layer %1 · feed-forward</source>
        <translation>编码器第 %1 层 · 前馈网络</translation>
    </message>
    <message>
        <source>decoder layer %1 · feed-forward</source>
        <translation>解码器第 %1 层 · 前馈网络</translation>
    </message>
    <message>
        <source>encoder layer %1</source>
        <translation>编码器第 %1 层</translation>
    </message>
    <message>
        <source>decoder layer %1</source>
        <translation>解码器第 %1 层</translation>
    </message>
    <message>
        <source>encoder layer %1 · self-attention</source>
        <translation>编码器第 %1 层 · 自注意力</translation>
    </message>
    <message>
        <source>decoder layer %1 · masked self-attention</source>
        <translation>解码器第 %1 层 · 带掩码的自注意力</translation>
    </message>
    <message>
        <source>decoder layer %1 · cross-attention</source>
        <translation>解码器第 %1 层 · 交叉注意力</translation>
    </message>
    <message>
        <source>R = X + MultiHead(X)</source>
        <translation>R = X + MultiHead(X)</translation>
    </message>
    <message>
        <source>R = Y + MultiHead(Q = Y, K = V = Mem)</source>
        <translation>R = Y + MultiHead(Q = Y, K = V = Mem)</translation>
    </message>
    <message>
        <source>LN(x) = (x − μ) / √(σ² + ε) · γ + β</source>
        <translation>LN(x) = (x − μ) / √(σ² + ε) · γ + β</translation>
    </message>
    <message>
        <source>H = act(X·W₁ᵀ + b₁)</source>
        <translation>H = act(X·W₁ᵀ + b₁)</translation>
    </message>
    <message>
        <source>F = H·W₂ᵀ + b₂</source>
        <translation>F = H·W₂ᵀ + b₂</translation>
    </message>
    <message>
        <source>R = X + FFN(X)</source>
        <translation>R = X + FFN(X)</translation>
    </message>
    <message>
        <source>the layer&apos;s output</source>
        <translation>该层的输出</translation>
    </message>
    <message>
        <source>Mem = LN(encoder&apos;s last layer)</source>
        <translation>Mem = LN(编码器最后一层的输出)</translation>
    </message>
    <message>
        <source>D = LN(decoder&apos;s last layer)</source>
        <translation>D = LN(解码器最后一层的输出)</translation>
    </message>
    <message>
        <source>logits = D·Wᵀ + b</source>
        <translation>logits = D·Wᵀ + b</translation>
    </message>
    <message>
        <source>P = softmax(logits)</source>
        <translation>P = softmax(logits)</translation>
    </message>
    <message>
        <source>Add (attention)</source>
        <translation>Add：残差连接（注意力）</translation>
    </message>
    <message>
        <source>Norm (attention)</source>
        <translation>Norm：归一化（注意力）</translation>
    </message>
    <message>
        <source>Add (cross-attention)</source>
        <translation>Add：残差连接（交叉注意力）</translation>
    </message>
    <message>
        <source>Norm (cross-attention)</source>
        <translation>Norm：归一化（交叉注意力）</translation>
    </message>
    <message>
        <source>FFN hidden</source>
        <translation>FFN 隐藏层</translation>
    </message>
    <message>
        <source>FFN output</source>
        <translation>FFN 输出</translation>
    </message>
    <message>
        <source>Add (FFN)</source>
        <translation>Add：残差连接（FFN）</translation>
    </message>
    <message>
        <source>Norm (FFN)</source>
        <translation>Norm：归一化（FFN）</translation>
    </message>
    <message>
        <source>Layer output</source>
        <translation>层输出</translation>
    </message>
    <message>
        <source>Encoder output</source>
        <translation>编码器输出</translation>
    </message>
    <message>
        <source>Decoder output</source>
        <translation>解码器输出</translation>
    </message>
    <message>
        <source>Logits</source>
        <translation>对数几率（logits）</translation>
    </message>
    <message>
        <source>Probabilities</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>,  rows = target positions, columns = vocabulary</source>
        <translation>，行 = 目标位置，列 = 词表</translation>
    </message>
    <message>
        <source>The residual connection adds the sublayer&apos;s output to its input: the token keeps what it had and gradients flow straight through.</source>
        <translation>残差连接把子层的输出加回到它的输入上：词元保留了原有的信息，梯度也能直接穿过。</translation>
    </message>
    <message>
        <source>LayerNorm rescales each token&apos;s vector to mean 0 and variance 1 over its d_model features, then applies γ and β.</source>
        <translation>层归一化在每个词元的 d_model 个特征上，把它的向量缩放为均值 0、方差 1，然后再乘以 γ、加上 β。</translation>
    </message>
    <message>
        <source>The feed-forward network widens every token to d_ff features and applies the non-linearity, each token on its own.</source>
        <translation>前馈网络把每个词元扩展到 d_ff 个特征，并施加非线性激活；每个词元单独计算。</translation>
    </message>
    <message>
        <source>The second linear layer brings the d_ff features back to d_model.</source>
        <translation>第二个线性层把 d_ff 个特征变回 d_model 个。</translation>
    </message>
    <message>
        <source>What this layer hands to the next one.</source>
        <translation>这一层传给下一层的内容。</translation>
    </message>
    <message>
        <source>The encoder&apos;s output, the memory: every decoder layer&apos;s cross-attention reads its keys and values from it.</source>
        <translation>编码器的输出，即“记忆”（memory）：每个解码器层的交叉注意力都从这里读取键和值。</translation>
    </message>
    <message>
        <source>The decoder&apos;s output: one vector per target position, ready to be turned into a word.</source>
        <translation>解码器的输出：每个目标位置一个向量，接下来要把它变成一个词。</translation>
    </message>
    <message>
        <source>A linear layer scores every word of the vocabulary for the next position.</source>
        <translation>一个线性层为下一个位置给词表中的每个词打分。</translation>
    </message>
    <message>
        <source>Softmax turns each row of logits into next-token probabilities; greedy decoding takes the largest.</source>
        <translation>Softmax 把每一行 logits 变成下一个词元的概率；贪心解码取其中最大的一个。</translation>
    </message>
    <message>
        <source>Segment embedding</source>
        <translation>段嵌入</translation>
    </message>
    <message>
        <source>Sum of embeddings</source>
        <translation>嵌入之和</translation>
    </message>
    <message>
        <source>Masked-LM transform</source>
        <translation>掩码语言模型变换</translation>
    </message>
    <message>
        <source>T = W_type[segment]: segment A rows 0, segment B rows 1</source>
        <translation>T = W_type[段]：A 段取第 0 行，B 段取第 1 行</translation>
    </message>
    <message>
        <source>S = E + T + P</source>
        <translation>S = E + T + P</translation>
    </message>
    <message>
        <source>T = LN(GELU(Mem·W_tᵀ + b_t))</source>
        <translation>T = LN(GELU(Mem·W_tᵀ + b_t))</translation>
    </message>
    <message>
        <source>BERT reads one or two sentences: every token also looks up the vector of its segment (A or B).</source>
        <translation>BERT 读入一句或两句话：每个词元还要查出它所在段（A 或 B）的向量。</translation>
    </message>
    <message>
        <source>BERT adds the token, segment and position embeddings; a LayerNorm then makes the layers&apos; input X.</source>
        <translation>BERT 把词元、段和位置三种嵌入相加，再经过一次 LayerNorm，得到各层的输入 X。</translation>
    </message>
    <message>
        <source>The masked-LM head transforms each output vector once more before scoring the vocabulary: at a [MASK] it guesses the hidden word.</source>
        <translation>掩码语言模型头在给词表打分之前再变换一次每个输出向量：在 [MASK] 处它猜出被遮住的词。</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>R = Ã_L ··· Ã_1,  Ã = ½·mean of the heads + ½·I</source>
        <translation>R = Ã_L ··· Ã_1，Ã = ½·各头平均 + ½·I</translation>
    </message>
    <message>
        <source>Attention rollout multiplies the layers&apos; head-averaged weights, each mixed half and half with the identity for the residual path: row i estimates how much each input token flows into token i&apos;s last layer. An estimate, not an explanation.</source>
        <translation>注意力展开把各层按头平均后的权重逐层相乘，每层都与单位矩阵各占一半（代表残差通路）：第 i 行估计每个输入词元有多少信息流入词元 i 的最后一层。这只是估计，不是解释。</translation>
    </message>
    <message>
        <source>,  rows = positions, columns = vocabulary</source>
        <translation>，行 = 位置，列 = 词表</translation>
    </message>
    <message>
        <source>Ω: M × d_k Gaussian rows, orthogonal in blocks of d_k</source>
        <translation>Ω：M × d_k 的高斯行，每 d_k 行一块彼此正交</translation>
    </message>
    <message>
        <source>φ(q) = exp(Ω·q̂ − ‖q̂‖²/2) / √M,  q̂ = q / d_k^¼</source>
        <translation>φ(q) = exp(Ω·q̂ − ‖q̂‖²/2) / √M，  q̂ = q / d_k^¼</translation>
    </message>
    <message>
        <source>φ(q) = elu(q) + 1</source>
        <translation>φ(q) = elu(q) + 1</translation>
    </message>
    <message>
        <source>φ(k) = exp(Ω·k̂ − ‖k̂‖²/2) / √M,  k̂ = k / d_k^¼</source>
        <translation>φ(k) = exp(Ω·k̂ − ‖k̂‖²/2) / √M，  k̂ = k / d_k^¼</translation>
    </message>
    <message>
        <source>φ(k) = elu(k) + 1</source>
        <translation>φ(k) = elu(k) + 1</translation>
    </message>
    <message>
        <source>KV_h = φ(K_h)ᵀ·V_h</source>
        <translation>KV_h = φ(K_h)ᵀ·V_h</translation>
    </message>
    <message>
        <source>D_i = φ(q_i)·Σ_j φ(k_j)</source>
        <translation>D_i = φ(q_i)·Σ_j φ(k_j)</translation>
    </message>
    <message>
        <source>A_h = D⁻¹·φ(Q_h)·φ(K_h)ᵀ  (implied, drawn only to be seen)</source>
        <translation>A_h = D⁻¹·φ(Q_h)·φ(K_h)ᵀ  （隐含的矩阵，只为展示而画出）</translation>
    </message>
    <message>
        <source>Z_h = φ(Q_h)·(φ(K_h)ᵀ·V_h) / D</source>
        <translation>Z_h = φ(Q_h)·(φ(K_h)ᵀ·V_h) / D</translation>
    </message>
    <message>
        <source>E: K × n, entries drawn from N(0, 1/K)</source>
        <translation>E：K × n，元素取自 N(0, 1/K)</translation>
    </message>
    <message>
        <source>F: K × n, entries drawn from N(0, 1/K)</source>
        <translation>F：K × n，元素取自 N(0, 1/K)</translation>
    </message>
    <message>
        <source>K′_h = E·K_h</source>
        <translation>K′_h = E·K_h</translation>
    </message>
    <message>
        <source>V′_h = F·V_h</source>
        <translation>V′_h = F·V_h</translation>
    </message>
    <message>
        <source>S_h = Q_h·K′_hᵀ  (n × K)</source>
        <translation>S_h = Q_h·K′_hᵀ  （n × K）</translation>
    </message>
    <message>
        <source>S′_h = Q_h·K′_hᵀ / √d_k</source>
        <translation>S′_h = Q_h·K′_hᵀ / √d_k</translation>
    </message>
    <message>
        <source>S′_h = Q_h·K′_hᵀ   (scaling switched off)</source>
        <translation>S′_h = Q_h·K′_hᵀ   （已关闭缩放）</translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K′_hᵀ / √d_k)</source>
        <translation>A_h = softmax(Q_h·K′_hᵀ / √d_k)</translation>
    </message>
    <message>
        <source>A_h = softmax(Q_h·K′_hᵀ)</source>
        <translation>A_h = softmax(Q_h·K′_hᵀ)</translation>
    </message>
    <message>
        <source>Z_h = A_h·V′_h</source>
        <translation>Z_h = A_h·V′_h</translation>
    </message>
    <message>
        <source>M_ij = 0 if |i − j| ≤ W·D and (i − j) mod D = 0, or i or j is global; else −∞</source>
        <translation>若 |i − j| ≤ W·D 且 (i − j) mod D = 0，或 i、j 是全局位置，则 M_ij = 0；否则为 −∞</translation>
    </message>
    <message>
        <source>M_ij = 0 in the window, for R random keys and for global positions; else −∞</source>
        <translation>窗口内、R 个随机键和全局位置处 M_ij = 0；否则为 −∞</translation>
    </message>
    <message>
        <source>M_ij = 0 if |i − j| &lt; S or (i − j) mod S = 0; else −∞</source>
        <translation>若 |i − j| &lt; S 或 (i − j) mod S = 0，则 M_ij = 0；否则为 −∞</translation>
    </message>
    <message>
        <source>M_ij = 0 if bucket(q_i) = bucket(k_j) and j ≠ i; else −∞</source>
        <translation>若 bucket(q_i) = bucket(k_j) 且 j ≠ i，则 M_ij = 0；否则为 −∞</translation>
    </message>
    <message>
        <source>K_h = Q_h / ‖Q_h‖  (keys shared with the queries)</source>
        <translation>K_h = Q_h / ‖Q_h‖  （键与查询共享）</translation>
    </message>
    <message>
        <source>R_h: d_k × B/2, Gaussian</source>
        <translation>R_h：d_k × B/2，高斯分布</translation>
    </message>
    <message>
        <source>bucket(x) = argmax([x·R ; −x·R])</source>
        <translation>bucket(x) = argmax([x·R ; −x·R])</translation>
    </message>
    <message>
        <source>Performer draws M random directions, orthogonal in blocks: a vector&apos;s features are its positive exponentials along them.</source>
        <translation>Performer 抽取 M 个随机方向，按块彼此正交：向量的特征是它沿这些方向的正指数值。</translation>
    </message>
    <message>
        <source>Each vector becomes M positive features, made so that φ(q)·φ(k) estimates exp(q·k/√d_k), the softmax&apos;s numerator.</source>
        <translation>每个向量变成 M 个正特征，使 φ(q)·φ(k) 估计 softmax 的分子 exp(q·k/√d_k)。</translation>
    </message>
    <message>
        <source>Each vector becomes elu(x) + 1: positive, so φ(q)·φ(k) can stand in for the softmax&apos;s exp(q·k).</source>
        <translation>每个向量变成 elu(x) + 1：都是正数，因此 φ(q)·φ(k) 可以代替 softmax 中的 exp(q·k)。</translation>
    </message>
    <message>
        <source>The keys&apos; features times the values, summed over every key once: its size does not depend on n. This is why no n × n matrix is needed.</source>
        <translation>键的特征乘以值，对所有键只求和一次：它的大小与 n 无关。这就是不需要 n × n 矩阵的原因。</translation>
    </message>
    <message>
        <source>Each query&apos;s similarity with every key, summed: it divides the output as the softmax&apos;s denominator would.</source>
        <translation>每个查询与所有键的相似度之和：它像 softmax 的分母一样去除输出。</translation>
    </message>
    <message>
        <source>The attention matrix these features imply, computed only to be shown: the output never forms it.</source>
        <translation>这些特征所隐含的注意力矩阵，只为展示而计算：输出从不构造它。</translation>
    </message>
    <message>
        <source>Each query&apos;s features times KV, divided by its normaliser: the same result as the implied weights times V, in time linear in n.</source>
        <translation>每个查询的特征乘以 KV，再除以它的归一化量：结果与隐含权重乘以 V 相同，但时间与 n 成线性。</translation>
    </message>
    <message>
        <source>Linformer&apos;s seeded projection mixes the n positions into K rows: the keys (E) and values (F) shrink along the sequence, not along their features.</source>
        <translation>Linformer 用随机种子生成的投影把 n 个位置混合成 K 行：键（E）和值（F）沿序列方向缩短，而不是沿特征方向。</translation>
    </message>
    <message>
        <source>The keys projected to K rows: each query is compared with K mixtures of keys instead of n keys.</source>
        <translation>投影成 K 行的键：每个查询与 K 个键的混合比较，而不是与 n 个键比较。</translation>
    </message>
    <message>
        <source>The values projected to K rows: the weights over the K rows mix these.</source>
        <translation>投影成 K 行的值：K 行上的权重把它们混合起来。</translation>
    </message>
    <message>
        <source>Every query against the K projected keys: n × K numbers instead of n × n.</source>
        <translation>每个查询与 K 个投影后的键比较：n × K 个数，而不是 n × n。</translation>
    </message>
    <message>
        <source>A query attends only the keys in its own bucket (not itself, unless it is alone there).</source>
        <translation>查询只关注同一个桶里的键（不关注自己，除非桶里只有它自己）。</translation>
    </message>
    <message>
        <source>The kind&apos;s pattern, with the mask you chose: each query sees only the allowed keys. The others are −∞ and get weight 0; only the allowed cells are computed.</source>
        <translation>这种注意力的模式，加上你选择的掩码：每个查询只看到允许的键。其余为 −∞，权重为 0；只计算允许的单元格。</translation>
    </message>
    <message>
        <source>Reformer shares queries and keys: each key is its query made length 1.</source>
        <translation>Reformer 让查询和键共享：每个键是把对应查询归一化为长度 1。</translation>
    </message>
    <message>
        <source>A random matrix per head: a vector&apos;s bucket is the largest of its B/2 rotated coordinates and their negatives.</source>
        <translation>每个头一个随机矩阵：向量的桶是它的 B/2 个旋转坐标及其相反数中最大的那个。</translation>
    </message>
    <message>
        <source>Similar vectors land in the same bucket: only tokens that share a bucket attend each other.</source>
        <translation>相似的向量落入同一个桶：只有同桶的词元彼此关注。</translation>
    </message>
    <message>
        <source>full (softmax over every key)</source>
        <translation>完全（对所有键做 softmax）</translation>
    </message>
    <message>
        <source>sliding window (Longformer)</source>
        <translation>滑动窗口（Longformer）</translation>
    </message>
    <message>
        <source>BigBird (window + random + global)</source>
        <translation>BigBird（窗口 + 随机 + 全局）</translation>
    </message>
    <message>
        <source>strided (Sparse Transformer)</source>
        <translation>跨步（Sparse Transformer）</translation>
    </message>
    <message>
        <source>Linformer (low-rank)</source>
        <translation>Linformer（低秩）</translation>
    </message>
    <message>
        <source>Performer (random features)</source>
        <translation>Performer（随机特征）</translation>
    </message>
    <message>
        <source>linear (elu + 1)</source>
        <translation>线性（elu + 1）</translation>
    </message>
    <message>
        <source>LSH (Reformer)</source>
        <translation>LSH（Reformer）</translation>
    </message>
    <message>
        <source>Full attention&apos;s weights</source>
        <translation>完全注意力的权重</translation>
    </message>
    <message>
        <source>Error against full attention</source>
        <translation>与完全注意力的误差</translation>
    </message>
    <message>
        <source>Full attention&apos;s output</source>
        <translation>完全注意力的输出</translation>
    </message>
    <message>
        <source>Query features φ(Q)</source>
        <translation>查询特征 φ(Q)</translation>
    </message>
    <message>
        <source>Key features φ(K)</source>
        <translation>键特征 φ(K)</translation>
    </message>
    <message>
        <source>φ(K)ᵀ·V</source>
        <translation>φ(K)ᵀ·V</translation>
    </message>
    <message>
        <source>Normaliser D</source>
        <translation>归一化量 D</translation>
    </message>
    <message>
        <source>Projected keys K′</source>
        <translation>投影后的键 K′</translation>
    </message>
    <message>
        <source>Projected values V′</source>
        <translation>投影后的值 V′</translation>
    </message>
    <message>
        <source>Projection E</source>
        <translation>投影 E</translation>
    </message>
    <message>
        <source>Projection F</source>
        <translation>投影 F</translation>
    </message>
    <message>
        <source>Random features Ω</source>
        <translation>随机特征 Ω</translation>
    </message>
    <message>
        <source>Random rotations R</source>
        <translation>随机旋转 R</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>桶</translation>
    </message>
    <message>
        <source>FlashAttention (exact, in tiles)</source>
        <translation>FlashAttention（精确，分块计算）</translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>Running maximum m</source>
        <translation>累计最大值 m</translation>
    </message>
    <message>
        <source>Running sum ℓ</source>
        <translation>累计和 ℓ</translation>
    </message>
    <message>
        <source>Partial output O</source>
        <translation>部分输出 O</translation>
    </message>
    <message>
        <source>T_ij = the number of the B_r × B_c tile that computes s_ij, in order (0: hidden by the mask)</source>
        <translation>T_ij = 计算 s_ij 的 B_r × B_c 块按顺序的编号（0：被掩码遮住）</translation>
    </message>
    <message>
        <source>m_i ← max(m_i, max_j s_ij) after each key block,  s_ij = q_i·k_j / √d_k + M_ij</source>
        <translation>每个键块之后 m_i ← max(m_i, max_j s_ij)，  s_ij = q_i·k_j / √d_k + M_ij</translation>
    </message>
    <message>
        <source>m_i ← max(m_i, max_j s_ij) after each key block,  s_ij = q_i·k_j + M_ij</source>
        <translation>每个键块之后 m_i ← max(m_i, max_j s_ij)，  s_ij = q_i·k_j + M_ij</translation>
    </message>
    <message>
        <source>ℓ_i ← e^(m_old − m_new)·ℓ_i + Σ_j e^(s_ij − m_new) after each key block</source>
        <translation>每个键块之后 ℓ_i ← e^(m_old − m_new)·ℓ_i + Σ_j e^(s_ij − m_new)</translation>
    </message>
    <message>
        <source>O_i ← (ℓ_old·e^(m_old − m_new)·O_i + Σ_j e^(s_ij − m_new)·v_j) / ℓ_new</source>
        <translation>O_i ← (ℓ_old·e^(m_old − m_new)·O_i + Σ_j e^(s_ij − m_new)·v_j) / ℓ_new</translation>
    </message>
    <message>
        <source>A_ij = e^(s_ij − m_i) / ℓ_i  (made again from the final m and ℓ, only to be shown)</source>
        <translation>A_ij = e^(s_ij − m_i) / ℓ_i  （由最终的 m 和 ℓ 重新算出，仅用于显示）</translation>
    </message>
    <message>
        <source>Z_h = O after the last key block = softmax(S′′_h)·V_h</source>
        <translation>Z_h = 最后一个键块之后的 O = softmax(S′′_h)·V_h</translation>
    </message>
    <message>
        <source>FlashAttention cuts the score matrix into tiles of B_r queries by B_c keys and computes one tile at a time, never the whole n × n matrix. A tile the mask hides entirely is skipped.</source>
        <translation>FlashAttention 把分数矩阵切成 B_r 个查询 × B_c 个键的块，每次只算一块，从不计算整个 n × n 矩阵。被掩码完全遮住的块直接跳过。</translation>
    </message>
    <message>
        <source>Each query row keeps the largest score it has seen so far, one column per key block. When a later block holds a larger score, what was summed before is rescaled by e^(m_old − m_new).</source>
        <translation>每个查询行保存到目前为止见过的最大分数，每个键块一列。后面的块里出现更大的分数时，之前累加的结果要乘上 e^(m_old − m_new) 重新缩放。</translation>
    </message>
    <message>
        <source>Each row&apos;s softmax denominator so far, Σ e^(s_ij − m_i) over the keys seen: after the last key block it is the full softmax&apos;s denominator.</source>
        <translation>每一行到目前为止的 softmax 分母，即已见过的键的 Σ e^(s_ij − m_i)：最后一个键块之后，它就是完整 softmax 的分母。</translation>
    </message>
    <message>
        <source>Each row&apos;s output after each key block: exactly softmax attention over the keys seen so far. The last block&apos;s columns are the head&apos;s output.</source>
        <translation>每个键块之后每一行的输出：恰好是对到目前为止见过的键做的 softmax 注意力。最后一块的那几列就是这个头的输出。</translation>
    </message>
    <message>
        <source>FlashAttention never stores these weights; they are made again here from each row&apos;s final m and ℓ, as its backward pass does, to compare them with full attention.</source>
        <translation>FlashAttention 从不保存这些权重；这里像它的反向传播那样，用每一行最终的 m 和 ℓ 重新算出它们，以便和完全注意力比较。</translation>
    </message>
    <message>
        <source>The output after the last key block: the same as full attention&apos;s, up to float rounding.</source>
        <translation>最后一个键块之后的输出：与完全注意力的输出相同，只差浮点舍入误差。</translation>
    </message>
    <message>
        <source>For each query, the distance of its weights from full attention&apos;s: zero up to float rounding, because FlashAttention is exact.</source>
        <translation>每个查询的权重与完全注意力的距离：除浮点舍入误差外为零，因为 FlashAttention 是精确的。</translation>
    </message>
    <message>
        <source>Full softmax attention on the same queries, keys and mask, computed the usual way: what FlashAttention must equal.</source>
        <translation>用通常方法在相同查询、键和掩码上计算的完全 softmax 注意力：FlashAttention 必须与它相等。</translation>
    </message>
    <message>
        <source>A^full_h = softmax(Q_h·K_hᵀ / √d_k + M)</source>
        <translation>A^full_h = softmax(Q_h·K_hᵀ / √d_k + M)</translation>
    </message>
    <message>
        <source>A^full_h = softmax(Q_h·K_hᵀ + M)</source>
        <translation>A^full_h = softmax(Q_h·K_hᵀ + M)</translation>
    </message>
    <message>
        <source>e_i = Σ_j |A_ij − A^full_ij|</source>
        <translation>e_i = Σ_j |A_ij − A^full_ij|</translation>
    </message>
    <message>
        <source>O^full = [Z^full_1 | … | Z^full_h]·W_Oᵀ + b_O</source>
        <translation>O^full = [Z^full_1 | … | Z^full_h]·W_Oᵀ + b_O</translation>
    </message>
    <message>
        <source>Full softmax attention on the same queries, keys and mask: what this kind approximates.</source>
        <translation>在相同查询、键和掩码上的完全 softmax 注意力：这种注意力所近似的对象。</translation>
    </message>
    <message>
        <source>For each query, how far its row of weights is from full attention&apos;s: the sum of the absolute differences, from 0 (the same) to 2 (nothing in common).</source>
        <translation>每个查询的权重行与完全注意力的相差多远：差的绝对值之和，从 0（相同）到 2（毫无重叠）。</translation>
    </message>
    <message>
        <source>Full attention&apos;s output on the same input, to compare this kind&apos;s output with.</source>
        <translation>完全注意力在同一输入上的输出，用来与这种注意力的输出比较。</translation>
    </message>
    <message>
        <source>For each query, how far the token weights A·F its projected keys imply are from full attention&apos;s row: the sum of the absolute differences. A·F is no probability (F mixes with positive and negative numbers), so the distance can pass 2.</source>
        <translation>每个查询的投影键所隐含的词元权重 A·F 与完全注意力那一行相差多远：差的绝对值之和。A·F 不是概率（F 混合时既有正数也有负数），所以距离可以超过 2。</translation>
    </message>
    <message>
        <source>Rotation angles θ</source>
        <translation>旋转角 θ</translation>
    </message>
    <message>
        <source>Rotated queries Q̃</source>
        <translation>旋转后的查询 Q̃</translation>
    </message>
    <message>
        <source>Rotated keys K̃</source>
        <translation>旋转后的键 K̃</translation>
    </message>
    <message>
        <source>Position bias B</source>
        <translation>位置偏置 B</translation>
    </message>
    <message>
        <source>θ_pos,i = pos / B^(2i/d_k),  B = %1</source>
        <translation>θ_pos,i = pos / B^(2i/d_k)，B = %1</translation>
    </message>
    <message>
        <source>(x_2i, x_2i+1) → (x_2i·cos θ − x_2i+1·sin θ,  x_2i·sin θ + x_2i+1·cos θ)</source>
        <translation>(x_2i, x_2i+1) → (x_2i·cos θ − x_2i+1·sin θ,  x_2i·sin θ + x_2i+1·cos θ)</translation>
    </message>
    <message>
        <source>S_h = Q̃_h·K̃_hᵀ</source>
        <translation>S_h = Q̃_h·K̃_hᵀ</translation>
    </message>
    <message>
        <source>B_h,ij = −m_h·|i − j|,  m_h = 2^(−8h/H)</source>
        <translation>B_h,ij = −m_h·|i − j|，m_h = 2^(−8h/H)</translation>
    </message>
    <message>
        <source>S″_h = S′_h + B_h + M</source>
        <translation>S″_h = S′_h + B_h + M</translation>
    </message>
    <message>
        <source>RoPE turns each pair of a head&apos;s dimensions by an angle that grows with the position: fast for the first pairs, slowly for the last.</source>
        <translation>RoPE 把每个头的维度两两一组，按随位置增大的角度旋转：前面的维度对转得快，后面的转得慢。</translation>
    </message>
    <message>
        <source>Each query and key turned by its position&apos;s angles: a turn keeps lengths, and q_m·k_n then depends on m − n only.</source>
        <translation>每个查询和键都按其位置的角度旋转：旋转不改变长度，于是 q_m·k_n 只取决于 m − n。</translation>
    </message>
    <message>
        <source>ALiBi adds no position vector: each head lowers a score by its slope m_h times the distance, so far keys weigh less.</source>
        <translation>ALiBi 不加位置向量：每个头把分数减去斜率 m_h 乘以距离，距离越远的键权重越小。</translation>
    </message>
    <message>
        <source>FFN gate</source>
        <translation>FFN 门控</translation>
    </message>
    <message>
        <source>FFN up</source>
        <translation>FFN 上投影</translation>
    </message>
    <message>
        <source>Query norm</source>
        <translation>查询归一化</translation>
    </message>
    <message>
        <source>Key norm</source>
        <translation>键归一化</translation>
    </message>
    <message>
        <source>A gated feed-forward network (SwiGLU) has two linear layers side by side: this one, through SiLU, decides how much of each feature of the other passes.</source>
        <translation>门控前馈网络（SwiGLU）有两个并排的线性层：这一层经过 SiLU 之后，决定另一层的每个特征能通过多少。</translation>
    </message>
    <message>
        <source>The second of the two side-by-side layers: the values the gate lets through, feature by feature.</source>
        <translation>两个并排线性层中的第二个：门控逐个特征放行的就是它的值。</translation>
    </message>
    <message>
        <source>Qwen3 normalises each head's queries and keys on their own (an RMSNorm over d_k) before RoPE turns them, which keeps the scores from growing large.</source>
        <translation>Qwen3 在 RoPE 旋转之前，先把每个头的查询和键各自归一化（在 d_k 上做 RMSNorm），使分数不会变得过大。</translation>
    </message>
    <message>
        <source>Norm (attention output)</source>
        <translation>Norm：归一化（注意力输出）</translation>
    </message>
    <message>
        <source>Norm (FFN output)</source>
        <translation>Norm：归一化（FFN 输出）</translation>
    </message>
    <message>
        <source>Gemma 3 normalises the attention's output (an RMSNorm) before adding it to the layer's input, so that no sublayer's output outgrows the residual stream.</source>
        <translation>Gemma 3 先把注意力的输出归一化（RMSNorm），再把它加到本层的输入上，使任何子层的输出都不会压过残差流。</translation>
    </message>
    <message>
        <source>Gemma 3 normalises the feed-forward network's output (an RMSNorm) before adding it to the residual stream.</source>
        <translation>Gemma 3 先把前馈网络的输出归一化（RMSNorm），再把它加到残差流上。</translation>
    </message>
</context>
<context>
    <name>attnlab::TokensView</name>
    <message>
        <source>special token</source>
        <translation>特殊词元</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <source>CJK character</source>
        <translation>中日韩字符</translation>
    </message>
    <message>
        <source>word</source>
        <translation>单词</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>UTF-8 bytes</source>
        <translation>UTF-8 字节</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s). Each becomes one row of every matrix that follows.</source>
        <translation>
            <numerusform>%n 个词元。每个词元都对应后面每个矩阵中的一行。</numerusform>
        </translation>
    </message>
    <message>
        <source>1 UTF-8 byte</source>
        <translation>1 个 UTF-8 字节</translation>
    </message>
    <message>
        <source>%1 UTF-8 bytes</source>
        <translation>%1 个 UTF-8 字节</translation>
    </message>
    <message>
        <source>not in the vocabulary</source>
        <translation>不在词表中</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>编号 %1</translation>
    </message>
    <message>
        <source>Token %1 of %2: “%3”</source>
        <translation>第 %1 个词元（共 %2 个）：“%3”</translation>
    </message>
    <message>
        <source>1 token. It becomes one row of every matrix that follows.</source>
        <translation>1 个词元。它对应后面每个矩阵中的一行。</translation>
    </message>
    <message>
        <source>%1 tokens. Each becomes one row of every matrix that follows.</source>
        <translation>%1 个词元。每个词元都对应后面每个矩阵中的一行。</translation>
    </message>
    <message>
        <source>segment A</source>
        <translation>A 段</translation>
    </message>
    <message>
        <source>segment B</source>
        <translation>B 段</translation>
    </message>
</context>
<context>
    <name>attnlab::ViewStack</name>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>头视图</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>开销</translation>
    </message>
</context>
<context>
    <name>attnlab::CompareBar</name>
    <message>
        <source>&amp;Compare two inputs</source>
        <translation>对照两个输入(&amp;C)</translation>
    </message>
    <message>
        <source>Show A and B side by side on one colour scale, and A − B, at every stage (%1)</source>
        <translation>在每一步把 A 和 B 用同一条色标并排显示，并显示 A − B（%1）</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对照</translation>
    </message>
    <message>
        <source>&amp;B:</source>
        <translation>B(&amp;B)：</translation>
    </message>
    <message>
        <source>another sentence</source>
        <translation>另一句话</translation>
    </message>
    <message>
        <source>positional encoding</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>score scaling</source>
        <translation>分数缩放</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>What B changes against A (the sentence and settings above)</source>
        <translation>B 相对于 A 改变了什么（A 是上面的句子和设置）</translation>
    </message>
    <message>
        <source>B&apos;s sentence, e.g. 人咬了狗</source>
        <translation>B 的句子，例如 人咬了狗</translation>
    </message>
    <message>
        <source>Swap words</source>
        <translation>对调首尾词</translation>
    </message>
    <message>
        <source>A&apos;s sentence with its first and last words swapped</source>
        <translation>把 A 的句子首尾两个词对调</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>scores ÷ √d_k</source>
        <translation>分数 ÷ √d_k</translation>
    </message>
    <message>
        <source>scores not divided by √d_k</source>
        <translation>分数不除以 √d_k</translation>
    </message>
    <message>
        <source>causal (look-ahead)</source>
        <translation>因果（前瞻）</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>causal + padding</source>
        <translation>因果 + 填充</translation>
    </message>
    <message>
        <source>B&apos;s seed: other embeddings, learned positions and seeded weights</source>
        <translation>B 的随机种子：换一组词嵌入、可学习位置编码和随机初始化权重</translation>
    </message>
</context>
<context>
    <name>attnlab::CompareFigure</name>
    <message>
        <source>Transformer-XL</source>
        <translation>Transformer-XL</translation>
    </message>
    <message>
        <source>relative (Shaw)</source>
        <translation>相对位置（Shaw）</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>causal (look-ahead)</source>
        <translation>因果（前瞻）</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>causal + padding</source>
        <translation>因果 + 填充</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>positional encoding %1</source>
        <translation>位置编码：%1</translation>
    </message>
    <message>
        <source>scores ÷ √d_k</source>
        <translation>分数 ÷ √d_k</translation>
    </message>
    <message>
        <source>scores not divided by √d_k</source>
        <translation>分数不除以 √d_k</translation>
    </message>
    <message>
        <source>mask %1</source>
        <translation>掩码：%1</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>随机种子 %1</translation>
    </message>
    <message>
        <source>shapes differ: no difference</source>
        <translation>形状不同：无法相减</translation>
    </message>
    <message>
        <source>by token</source>
        <translation>按词元</translation>
    </message>
    <message>
        <source>by position</source>
        <translation>按位置</translation>
    </message>
    <message>
        <source>the same tokens in the same order: matched by position</source>
        <translation>词元相同、顺序相同：按位置对齐</translation>
    </message>
    <message>
        <source>rows and columns matched %1</source>
        <translation>行和列%1对齐</translation>
    </message>
    <message>
        <source>rows matched %1, columns %2</source>
        <translation>行%1对齐，列%2对齐</translation>
    </message>
    <message>
        <source>rows matched %1</source>
        <translation>行%1对齐</translation>
    </message>
    <message>
        <source>columns matched %1</source>
        <translation>列%1对齐</translation>
    </message>
    <message>
        <source> (B put in A&apos;s token order)</source>
        <translation>（B 已按 A 的词元顺序排列）</translation>
    </message>
    <message>
        <source>largest |A − B| = %1: zero up to float rounding</source>
        <translation>最大 |A − B| = %1：在浮点舍入误差之内为零</translation>
    </message>
    <message>
        <source>largest |A − B| = %1 (row %2, column %3)</source>
        <translation>最大 |A − B| = %1（行“%2”，列“%3”）</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>A − B</source>
        <translation>A − B</translation>
    </message>
    <message>
        <source>B has no such stage.</source>
        <translation>B 没有这一步。</translation>
    </message>
    <message>
        <source>B could not be computed: %1</source>
        <translation>B 无法计算：%1</translation>
    </message>
    <message>
        <source>A is %1 × %2 and B %3 × %4: the shapes differ, so there is no difference to draw.</source>
        <translation>A 是 %1 × %2，B 是 %3 × %4：形状不同，无法画出差值。</translation>
    </message>
    <message>
        <source>; cells masked in A or B only: %1</source>
        <translation>；只在 A 或 B 中被遮住的单元格：%1 个</translation>
    </message>
    <message>
        <source>RoPE (rotary)</source>
        <translation>RoPE（旋转）</translation>
    </message>
    <message>
        <source>ALiBi (linear biases)</source>
        <translation>ALiBi（线性偏置）</translation>
    </message>
</context>
<context>
    <name>attnlab::CompareView</name>
    <message>
        <source>This step has no matrix to compare.</source>
        <translation>这一步没有可以对照的矩阵。</translation>
    </message>
    <message>
        <source>B could not be computed: %1</source>
        <translation>B 无法计算：%1</translation>
    </message>
    <message>
        <source>A and B have the same tokens in the same order: the stages are lined up by position.</source>
        <translation>A 和 B 的词元相同、顺序也相同：各步骤按位置对齐。</translation>
    </message>
    <message>
        <source>B&apos;s tokens are A&apos;s in another order: at every stage B&apos;s rows (and the columns of the n × n matrices) are put in A&apos;s token order before A − B is taken. Without positional encoding the difference is then zero.</source>
        <translation>B 的词元就是 A 的词元换了顺序：每一步都先把 B 的行（以及 n × n 矩阵的列）按 A 的词元顺序排好，再计算 A − B。没有位置编码时，这个差为零。</translation>
    </message>
    <message>
        <source>B has other tokens: the stages are lined up by position (row i of A with row i of B).</source>
        <translation>B 的词元与 A 不同：各步骤按位置对齐（A 的第 i 行对 B 的第 i 行）。</translation>
    </message>
    <message>
        <source>A and B have different numbers of tokens: their matrices are shown side by side, without a difference.</source>
        <translation>A 和 B 的词元个数不同：只把两者的矩阵并排显示，不计算差值。</translation>
    </message>
    <message>
        <source>Comparison shows one head at a time: ↑ and ↓ change the head.</source>
        <translation>对照模式一次只显示一个头：用 ↑ 和 ↓ 切换。</translation>
    </message>
    <message>
        <source>Comparison shows this stage&apos;s matrix; switch comparison off to see its own view again.</source>
        <translation>对照模式只显示这一步的矩阵；关闭对照即可回到它原来的视图。</translation>
    </message>
    <message>
        <source>A: the input as typed</source>
        <translation>A：输入框里的输入</translation>
    </message>
    <message>
        <source>B: what A is compared with, on the same colour scale as A</source>
        <translation>B：与 A 对照的输入，和 A 使用同一条色标</translation>
    </message>
    <message>
        <source>A − B, cell by cell, on a diverging scale: white is 0</source>
        <translation>A − B，逐个单元格相减，使用发散色标：白色为 0</translation>
    </message>
    <message>
        <source>A: %1   (n = %2)</source>
        <translation>A：%1   （n = %2）</translation>
    </message>
    <message>
        <source>B: %1   (n = %2)</source>
        <translation>B：%1   （n = %2）</translation>
    </message>
</context>
<context>
    <name>attnlab::DeskMenus</name>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit to the view</source>
        <translation>适合视图(&amp;F)</translation>
    </message>
    <message>
        <source>Draw the heatmaps larger (scroll to see the rest); Ctrl + mouse wheel zooms at the pointer</source>
        <translation>把热力图画得更大（滚动查看其余部分）；按住 Ctrl 滚动鼠标滚轮，以指针处为中心缩放</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>入门(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;About Attention Lab</source>
        <translation>关于 Attention Lab(&amp;A)</translation>
    </message>
    <message>
        <source>Type in the sentence box</source>
        <translation>在句子框中输入</translation>
    </message>
</context>
<context>
    <name>attnlab::GettingStarted</name>
    <message>
        <source>Getting started</source>
        <translation>入门</translation>
    </message>
    <message>
        <source>What you see</source>
        <translation>你看到的是什么</translation>
    </message>
    <message>
        <source>Type a sentence in the box at the top. Attention Lab computes attention on it and keeps every intermediate result: the tokens, their embeddings, the queries Q, keys K and values V, the scores Q·Kᵀ, their scaling by √d_k, the mask, the softmax weights A and the output A·V. The &lt;b&gt;Stages&lt;/b&gt; panel lists these steps; the picture shows one of them, and the banner above it gives its formula. Click a cell to see how it was computed.</source>
        <translation>在顶部的框里输入一个句子。Attention Lab 在它上面计算注意力，并保留每一个中间结果：词元、词嵌入、查询 Q、键 K 和值 V、分数 Q·Kᵀ、除以 √d_k 的缩放、掩码、softmax 权重 A，以及输出 A·V。&lt;b&gt;阶段导航&lt;/b&gt;面板列出这些步骤；图里显示其中一步，图上方的横幅给出它的公式。点击一个格子，就能看到它是怎样算出来的。</translation>
    </message>
    <message>
        <source>In a heatmap, rows are queries (the token that looks) and columns are keys (the tokens it looks at); every row of the weights sums to 1. The &lt;b&gt;Settings&lt;/b&gt; panel changes the computation (d_model, heads, the mask, the positional encoding, the attention kind, a whole Transformer, or a real model such as GPT-2, BERT, Llama or Qwen from &lt;i&gt;File ▸ Models&lt;/i&gt;), and every picture follows at once.</source>
        <translation>在热力图里，行是查询（去看的那个词元），列是键（被看的词元）；权重的每一行加起来都是 1。&lt;b&gt;设置&lt;/b&gt;面板改变计算方式（d_model、头数、掩码、位置编码、注意力的种类、完整的 Transformer，或者&lt;i&gt;文件 ▸ 模型库&lt;/i&gt;里的真实模型，如 GPT-2、BERT、Llama 或 Qwen），每一幅图都会立刻跟着改变。</translation>
    </message>
    <message>
        <source>Keys (a presentation clicker sends them too)</source>
        <translation>按键（演示翻页器发送的也是这些键）</translation>
    </message>
    <message>
        <source>First / last stage</source>
        <translation>第一个 / 最后一个阶段</translation>
    </message>
    <message>
        <source>Next / previous head</source>
        <translation>下一个 / 上一个头</translation>
    </message>
    <message>
        <source>Presenter mode: the picture and the text alone, in large type</source>
        <translation>演示模式：只显示图和文字，字号放大</translation>
    </message>
    <message>
        <source>Type in the sentence box</source>
        <translation>在句子框中输入</translation>
    </message>
    <message>
        <source>The keys step wherever the focus is, except in a text field you are typing in. Every shortcut: &lt;a href=&quot;%1&quot;&gt;Help ▸ Keyboard shortcuts&lt;/a&gt; (%2).</source>
        <translation>不管焦点在哪里，这些键都会步进，只有正在输入的文本框除外。全部快捷键见&lt;a href=&quot;%1&quot;&gt;帮助 ▸ 键盘快捷键&lt;/a&gt;（%2）。</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>The &lt;b&gt;Lessons&lt;/b&gt; panel lists the lessons, from queries, keys and values to masks, multi-head attention, positions, the whole Transformer, GPT-2 and BERT, efficient attention and training. Pick one: each step sets the sentence and the settings and shows one stage beside its explanation, and the keys above step through it. &lt;b&gt;Stop lesson&lt;/b&gt; brings back your own sentence and settings; &lt;b&gt;Export lesson…&lt;/b&gt; saves a lesson as a PDF deck to project. The GPT-2 and BERT lessons need the model in the Models folder (&lt;i&gt;File ▸ Models&lt;/i&gt; says where and what to download).</source>
        <translation>&lt;b&gt;课程&lt;/b&gt;面板列出所有课程：从查询、键和值，到掩码、多头注意力、位置编码、完整的 Transformer、GPT-2 和 BERT、高效注意力以及训练。选一课：每一步都会设好句子和设置，把一个阶段和它的讲解并排显示出来，用上面的按键逐步往下走。&lt;b&gt;结束课程&lt;/b&gt;会恢复你自己的句子和设置；&lt;b&gt;导出课程…&lt;/b&gt;把一课存成可以投影的 PDF 幻灯片。GPT-2 和 BERT 的课程需要模型文件夹里有相应的模型（&lt;i&gt;文件 ▸ 模型库&lt;/i&gt;会说明放在哪里、下载什么）。</translation>
    </message>
</context>
<context>
    <name>attnlab::ShortcutSheet</name>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>First stage</source>
        <translation>第一个阶段</translation>
    </message>
    <message>
        <source>Last stage</source>
        <translation>最后一个阶段</translation>
    </message>
    <message>
        <source>Next head</source>
        <translation>下一个头</translation>
    </message>
    <message>
        <source>Previous head</source>
        <translation>上一个头</translation>
    </message>
    <message>
        <source>Black screen (presenter mode)</source>
        <translation>黑屏（演示模式）</translation>
    </message>
    <message>
        <source>Leave presenter mode, or give the keys back from a text field</source>
        <translation>退出演示模式，或让文本框交回按键</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>(no description)</source>
        <translation>（无说明）</translation>
    </message>
    <message>
        <source>Stepping keys</source>
        <translation>步进按键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Mouse on a heatmap</source>
        <translation>热力图上的鼠标操作</translation>
    </message>
    <message>
        <source>Zoom in or out at the pointer</source>
        <translation>以指针处为中心放大或缩小</translation>
    </message>
    <message>
        <source>Ctrl + wheel</source>
        <translation>Ctrl + 滚轮</translation>
    </message>
    <message>
        <source>Scroll a zoomed heatmap (Shift: sideways)</source>
        <translation>滚动已放大的热力图（按住 Shift：横向）</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Copy image, copy value, export</source>
        <translation>复制图像、复制数值、导出</translation>
    </message>
    <message>
        <source>Right click</source>
        <translation>右键单击</translation>
    </message>
</context>
<context>
    <name>attnlab::AboutDialog</name>
    <message>
        <source>About Attention Lab</source>
        <translation>关于 Attention Lab</translation>
    </message>
    <message>
        <source>Attention Lab&apos;s own licence has not been chosen yet.</source>
        <translation>Attention Lab 自身的许可证尚未选定。</translation>
    </message>
    <message>
        <source>Attention Lab is licensed under %1.</source>
        <translation>Attention Lab 以 %1 许可证发布。</translation>
    </message>
    <message>
        <source>Attention Lab</source>
        <translation>Attention Lab</translation>
    </message>
    <message>
        <source>See every stage of Transformer attention, live: type a sentence and step from the tokens to the output.</source>
        <translation>实时查看 Transformer 注意力的每一个阶段：输入一个句子，从词元一步步走到输出。</translation>
    </message>
    <message>
        <source>Qt %1 (built with %2) · Eigen %3 · QCustomPlot %4</source>
        <translation>Qt %1（构建时为 %2）· Eigen %3 · QCustomPlot %4</translation>
    </message>
    <message>
        <source>It uses Qt (LGPL-3.0), Eigen (MPL-2.0) and QCustomPlot (GPL-3.0).</source>
        <translation>本程序使用 Qt（LGPL-3.0）、Eigen（MPL-2.0）和 QCustomPlot（GPL-3.0）。</translation>
    </message>
</context>
<context>
    <name>attnlab::HeatmapMenu</name>
    <message>
        <source>row %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <source>row %1 “%2”, column %3 “%4”</source>
        <translation>第 %1 行“%2”，第 %3 列“%4”</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 = %2 (%3)</source>
        <translation>%1 = %2（%3）</translation>
    </message>
    <message>
        <source>Copy &amp;image</source>
        <translation>复制图像(&amp;I)</translation>
    </message>
    <message>
        <source>Copy &amp;value</source>
        <translation>复制数值(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>attnlab::SettingsPanel</name>
    <message>
        <source>Encoder layers and decoder layers, as many of each: every layer lets each token gather context again, from vectors the layer before already mixed</source>
        <translation>编码器层数与解码器层数（两者相同）：每多一层，每个词元就能再收集一次上下文，而这些向量已经被上一层混合过</translation>
    </message>
    <message>
        <source>Hidden width of the feed-forward network (4 × d_model in the paper): the room each token gets to transform what attention gathered</source>
        <translation>前馈网络的隐藏宽度（论文中为 4 × d_model）：每个词元用来变换注意力所收集信息的空间</translation>
    </message>
    <message>
        <source>Where LayerNorm sits: after each residual sum (Post-LN, the paper) or before each sublayer (Pre-LN, which keeps deep stacks stable to train)</source>
        <translation>LayerNorm 的位置：在每次残差相加之后（Post-LN，论文的做法），或在每个子层之前（Pre-LN，使深层堆叠训练更稳定）</translation>
    </message>
    <message>
        <source>The feed-forward network&apos;s nonlinearity: ReLU (the paper) sets negative values to 0; GELU bends smoothly near 0 (BERT, GPT)</source>
        <translation>前馈网络的非线性函数：ReLU（论文）把负值置为 0；GELU 在 0 附近平滑弯曲（BERT、GPT）</translation>
    </message>
    <message>
        <source>Width of every token vector: more dimensions hold more features, and each head gets d_model / heads of them</source>
        <translation>每个词元向量的宽度：维度越多，能容纳的特征越多；每个头分到 d_model / 头数 个维度</translation>
    </message>
    <message>
        <source>Divide scores by √d_k (keeps the softmax from saturating as d_k grows)</source>
        <translation>分数除以 √d_k（防止 d_k 增大时 softmax 饱和）</translation>
    </message>
    <message>
        <source>Which keys each query may not look at: causal hides later tokens (a decoder must not see the future), padding hides the &lt;pad&gt; tokens. A Transformer masks every encoder layer, padding also cross-attention</source>
        <translation>每个查询不能查看哪些键：因果掩码隐藏后面的词元（解码器不能看到未来），填充掩码隐藏 &lt;pad&gt; 词元。Transformer 在每个编码器层都加掩码，填充掩码还用于交叉注意力</translation>
    </message>
    <message>
        <source>Your own pattern of hidden cells, from a file (one row per query; 1 = masked)</source>
        <translation>从文件读取你自己的遮盖图样（每个查询一行；1 = 遮盖）</translation>
    </message>
    <message>
        <source>Append &lt;pad&gt; tokens up to this length, as sentences of different lengths in one batch need; a padding mask keeps attention off them</source>
        <translation>追加 &lt;pad&gt; 词元直到这个长度，就像同一批次中长度不同的句子所需要的那样；填充掩码让注意力避开它们</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最多词元数</translation>
    </message>
    <message>
        <source>The input is cut after this many tokens, with a warning (at most %1: GPT-2 reads up to 1024 tokens, BERT up to 512)</source>
        <translation>输入超过这么多词元的部分会被截去，并给出提示（最多 %1：GPT-2 最多读 1024 个词元，BERT 最多 512 个）</translation>
    </message>
    <message>
        <source>W_Q, W_K, W_V and W_O: seeded random (Xavier), identity (Q = K = V = X, so scores are the embeddings&apos; own dot products), or from a file</source>
        <translation>W_Q、W_K、W_V 和 W_O：按种子随机（Xavier）、单位矩阵（Q = K = V = X，分数就是嵌入彼此的点积），或来自文件</translation>
    </message>
    <message>
        <source>Open W_Q, W_K, W_V and W_O from a safetensors file (its d_model replaces yours)</source>
        <translation>从 safetensors 文件打开 W_Q、W_K、W_V 和 W_O（文件中的 d_model 会替换当前值）</translation>
    </message>
    <message>
        <source>Save the weights in use as a safetensors file, to open again or in PyTorch</source>
        <translation>把当前使用的权重保存为 safetensors 文件，以便再次打开或在 PyTorch 中使用</translation>
    </message>
</context>
<context>
    <name>attnlab::DecoderPanel</name>
    <message>
        <source>The correct translation the decoder reads (teacher forcing): every position sees the right tokens before it, as in training</source>
        <translation>解码器读取的正确译文（教师强制）：每个位置都看到它前面的正确词元，与训练时一样</translation>
    </message>
</context>
<context>
    <name>attnlab::CompareBar</name>
    <message>
        <source>B&apos;s sentence, computed with A&apos;s settings: swap two words to see what the positions change</source>
        <translation>B 的句子，用 A 的设置计算：交换两个词，看看位置带来了什么变化</translation>
    </message>
    <message>
        <source>B&apos;s positional encoding: A&apos;s sentence and other settings, with another way to add positions</source>
        <translation>B 的位置编码：A 的句子和其他设置，用另一种方式加入位置</translation>
    </message>
    <message>
        <source>B with or without ÷√d_k: without it, large scores make the softmax almost one-hot</source>
        <translation>B 是否除以 √d_k：不除时，较大的分数会让 softmax 几乎变成独热分布</translation>
    </message>
    <message>
        <source>B&apos;s mask: which keys each query of B may not look at</source>
        <translation>B 的掩码：B 的每个查询不能查看哪些键</translation>
    </message>
</context>
<context>
    <name>attnlab::TopKView</name>
    <message>
        <source>argmax</source>
        <translation>argmax</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Position %1 (“%2”): the %3 most probable next tokens</source>
        <translation>位置 %1（“%2”）：最可能的 %3 个下一个词元</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>The next token “%1” has p = %2 (rank %3).</source>
        <translation>下一个词元“%1”的概率 p = %2（排第 %3 位）。</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>The decoder position whose next-token probabilities are shown (counted from 1)</source>
        <translation>显示其下一个词元概率的解码器位置（从 1 开始计数）</translation>
    </message>
    <message>
        <source>Top k:</source>
        <translation>前 k 个：</translation>
    </message>
    <message>
        <source>How many of the most probable tokens to show</source>
        <translation>显示概率最高的前多少个词元</translation>
    </message>
    <message>
        <source>Position %1 (“%2”): the %3 most probable tokens to stand there</source>
        <translation>位置 %1（“%2”）：最可能出现在这里的 %3 个词元</translation>
    </message>
    <message>
        <source>The position whose probabilities are shown (counted from 1)</source>
        <translation>显示其概率的位置（从 1 开始计数）</translation>
    </message>
</context>
<context>
    <name>attnlab::StateDictDialog</name>
    <message>
        <source>Open a PyTorch state dict</source>
        <translation>打开 PyTorch 状态字典</translation>
    </message>
    <message>
        <source>%1 has no Attention Lab metadata: it is read as the state dict of PyTorch&apos;s nn.TransformerEncoderLayer, nn.TransformerEncoder, nn.TransformerDecoderLayer or nn.Transformer. Its widths and layers come from its shapes; say what they cannot tell. The embeddings are seeded.</source>
        <translation>%1 没有 Attention Lab 元数据：它将作为 PyTorch 的 nn.TransformerEncoderLayer、nn.TransformerEncoder、nn.TransformerDecoderLayer 或 nn.Transformer 的状态字典读入。宽度和层数来自张量形状；请补充形状无法说明的设置。嵌入由种子生成。</translation>
    </message>
    <message>
        <source>nhead: the number of attention heads (d_model must be a multiple of it)</source>
        <translation>nhead：注意力头数（d_model 必须是它的倍数）</translation>
    </message>
    <message>
        <source>after each sublayer (Post-LN, norm_first=False)</source>
        <translation>在每个子层之后（Post-LN，norm_first=False）</translation>
    </message>
    <message>
        <source>before each sublayer (Pre-LN, norm_first=True)</source>
        <translation>在每个子层之前（Pre-LN，norm_first=True）</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;LayerNorm:</source>
        <translation>LayerNorm(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Activation:</source>
        <translation>激活函数(&amp;A)：</translation>
    </message>
    <message>
        <source>LayerNorm &amp;ε:</source>
        <translation>LayerNorm &amp;ε：</translation>
    </message>
</context>
<context>
    <name>attnlab::AttentionView</name>
    <message>
        <source>This computation has no attention weights to show.</source>
        <translation>这次计算没有可显示的注意力权重。</translation>
    </message>
    <message>
        <source>Block:</source>
        <translation>注意力块：</translation>
    </message>
    <message>
        <source>%1 · query token “%2”</source>
        <translation>%1 · 查询词元“%2”</translation>
    </message>
</context>
<context>
    <name>attnlab::AttentionMaps</name>
    <message>
        <source>One attention block</source>
        <translation>单个注意力块</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelGrid</name>
    <message>
        <source>L%1</source>
        <translation>层%1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>layer %1, head %2</source>
        <translation>第 %1 层，头 %2</translation>
    </message>
    <message>
        <source>layer %1, head %2 (its keys and values: KV head %3)</source>
        <translation>第 %1 层，头 %2（它的键和值：KV 头 %3）</translation>
    </message>
    <message>
        <source>KV%1</source>
        <translation>KV%1</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelView</name>
    <message>
        <source>largest</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>One attention block: the attention weights of each of its %1 heads, pictures of %2 × %3 weights. The row of the query token “%4” is framed in each. Click a picture, or press Enter on it, to open that head.</source>
        <translation>单个注意力块：它的 %1 个头各自的注意力权重，每幅小图有 %2 × %3 个权重。查询词元“%4”所在的行在每幅图中都加了框。点击一幅小图（或选中后按 Enter）即可打开这个头。</translation>
    </message>
    <message>
        <source>%1: the attention weights of every layer (rows) and head (columns), %2 × %3 pictures of %4 × %5 weights. The row of the query token “%6” is framed in each. Click a picture, or press Enter on it, to open that layer and head.</source>
        <translation>%1：每一层（行）每个头（列）的注意力权重，共 %2 × %3 幅小图，每幅 %4 × %5 个权重。查询词元“%6”所在的行在每幅图中都加了框。点击一幅小图（或选中后按 Enter）即可打开这一层的这个头。</translation>
    </message>
    <message>
        <source>Query token:</source>
        <translation>查询词元：</translation>
    </message>
    <message>
        <source>Colours: attention weight from 0 to 1, or to each picture&apos;s largest weight (a picture of many tokens shows the largest weight of the cells each pixel covers)</source>
        <translation>颜色：注意力权重，从 0 到 1，或从 0 到每幅小图自己的最大权重（词元很多时，每个像素显示它覆盖的单元格中的最大权重）</translation>
    </message>
    <message>
        <source>Stretch colours</source>
        <translation>拉伸颜色</translation>
    </message>
    <message>
        <source>Colour each picture from 0 to its own largest weight, so heads that spread their attention thin show their pattern too</source>
        <translation>每幅小图按 0 到它自己的最大权重着色，这样把注意力分散得很薄的头也能看出模式</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadLines</name>
    <message>
        <source>Query “%1”: click to show where it looks</source>
        <translation>查询“%1”：点击以显示它关注哪里</translation>
    </message>
    <message>
        <source>Key “%1”</source>
        <translation>键“%1”</translation>
    </message>
    <message>
        <source>head %1: %2</source>
        <translation>头 %1：%2</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadView</name>
    <message>
        <source>Layer %1 of %2</source>
        <translation>%2的第 %1 层</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Show every head&apos;s lines</source>
        <translation>显示所有头的线</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Hide every head&apos;s lines</source>
        <translation>隐藏所有头的线</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Show or hide the lines of head %1</source>
        <translation>显示或隐藏头 %1 的线</translation>
    </message>
    <message>
        <source>%1: where the query token “%2” looks, a line to each key in every head's colour, thicker and more opaque for a larger weight.</source>
        <translation>%1：查询词元“%2”关注哪里——每个头用自己的颜色向每个键画一条线，权重越大，线越粗、越不透明。</translation>
    </message>
    <message>
        <source>Click a token on the left or press ↑/↓ to choose another; ←/→ change the layer; the check boxes switch heads on and off.</source>
        <translation>点击左侧的词元或按 ↑/↓ 选择另一个词元；←/→ 切换层；复选框可打开或关闭各个头。</translation>
    </message>
</context>
<context>
    <name>attnlab::PredictionsView</name>
    <message>
        <source>Predictions come from a real model: open a GPT-2 or BERT folder from the Hugging Face hub with File ▸ Open model… (docs/pretrained-models.md says which files it needs).</source>
        <translation>预测来自真实的模型：用 文件 ▸ 打开模型… 打开一个从 Hugging Face hub 下载的 GPT-2 或 BERT 文件夹（需要哪些文件见 docs/pretrained-models.md）。</translation>
    </message>
    <message>
        <source>This BERT folder has no masked-LM head (a BertModel checkpoint): it computes every layer&apos;s attention but predicts no tokens. Open a BertForMaskedLM folder, such as bert-base-uncased, to see what BERT fills in at [MASK].</source>
        <translation>这个 BERT 文件夹没有掩码语言模型头（BertModel 检查点）：它能算出每一层的注意力，但不预测词元。打开一个 BertForMaskedLM 文件夹（例如 bert-base-uncased），就能看到 BERT 在 [MASK] 处填什么。</translation>
    </message>
    <message>
        <source>This model folder has no language-model head: it computes every layer&apos;s attention but predicts no tokens.</source>
        <translation>这个模型文件夹没有语言模型头：它能算出每一层的注意力，但不预测词元。</translation>
    </message>
    <message>
        <source>No predictions: the sentence could not be computed. %1</source>
        <translation>没有预测：这个句子无法计算。%1</translation>
    </message>
    <message>
        <source>After “%1” (position %2): the likeliest next tokens</source>
        <translation>在“%1”（位置 %2）之后：最可能的下一个词元</translation>
    </message>
    <message>
        <source>Position %1 (“%2”): the likeliest tokens there</source>
        <translation>位置 %1（“%2”）：这里最可能的词元</translation>
    </message>
    <message>
        <source>[MASK] at %1: %2</source>
        <translation>位置 %1 的 [MASK]：%2</translation>
    </message>
    <message>
        <source>What %2 expects next: the %1 likeliest tokens after the chosen position, from its row of the probabilities (the softmax of the logits). A bar&apos;s length is its probability on a scale up to 100 %; ␣ marks a leading space; the outlined bar is the token the text has next.</source>
        <translation>%2 预计接下来是什么：所选位置之后最可能的 %1 个词元，取自概率矩阵（logits 的 softmax）中该位置的一行。条的长度就是概率，满格为 100 %；␣ 表示词元前带空格；加虚线框的条是文本中实际的下一个词元。</translation>
    </message>
    <message>
        <source>What BERT fills in: at each [MASK], the %1 likeliest tokens from that position&apos;s row of the masked-LM head&apos;s probabilities. A bar&apos;s length is its probability on a scale up to 100 %. Positions count from 1, [CLS] being 1, as everywhere in the studio (fill-mask --json and the trace JSON count from 0).</source>
        <translation>BERT 填入什么：在每个 [MASK] 处，掩码语言模型头的概率矩阵中该位置那一行里最可能的 %1 个词元。条的长度就是概率，满格为 100 %。位置从 1 数起，[CLS] 是 1，与工作室中其他地方一致（fill-mask --json 和计算轨迹 JSON 从 0 数起）。</translation>
    </message>
    <message>
        <source> The outlined bar is the token the text has there.</source>
        <translation>加虚线框的条是文本中这个位置实际的词元。</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>The token whose row of the probabilities is shown (counted from 1, as everywhere in the studio; the trace JSON counts from 0); ↑/↓ choose another</source>
        <translation>显示哪个词元在概率矩阵中的那一行（从 1 数起，与工作室中其他地方一致；计算轨迹 JSON 从 0 数起）；用 ↑/↓ 选择其他词元</translation>
    </message>
    <message>
        <source>Type [MASK] in the sentence to see what BERT fills in. Meanwhile, the likeliest tokens at one position:</source>
        <translation>在句子里输入 [MASK]，就能看到 BERT 填入什么。现在先显示某一个位置上最可能的词元：</translation>
    </message>
    <message>
        <source>%1 on “%2”</source>
        <translation>%1：“%2”</translation>
    </message>
    <message>
        <source>Predictions come from a real model: open a Hugging Face model folder (%1) with File ▸ Models or File ▸ Open model folder… (docs/pretrained-models.md says which files it needs).</source>
        <translation>预测来自真实的模型：用 文件 ▸ 模型库 或 文件 ▸ 打开模型文件夹… 打开一个 Hugging Face 模型文件夹（%1）（需要哪些文件见 docs/pretrained-models.md）。</translation>
    </message>
</context>
<context>
    <name>attnlab::PredictionBars</name>
    <message>
        <source>&lt; 0.1 %</source>
        <translation>&lt; 0.1 %</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>in the text</source>
        <translation>文本中的词元</translation>
    </message>
    <message>
        <source>“%1” (id %2): p = %3</source>
        <translation>“%1”（id %2）：p = %3</translation>
    </message>
</context>
<context>
    <name>attnlab::GenerationPanel</name>
    <message>
        <source>Generate %1</source>
        <translation>生成 %1 个</translation>
    </message>
    <message>
        <source>Writing token %1 of %2: %3</source>
        <translation>正在写第 %1 / %2 个词元：%3</translation>
    </message>
    <message>
        <source>The temperature must be a number above 0 (1 keeps the model&apos;s probabilities, lower is closer to greedy): “%1” is not.</source>
        <translation>温度必须是大于 0 的数（1 保持模型的概率，越小越接近贪心）：“%1”不是。</translation>
    </message>
    <message>
        <source>Top-k must be a whole number, 0 (every token) or more: “%1” is not.</source>
        <translation>Top-k 必须是大于等于 0 的整数（0 表示所有词元）：“%1”不是。</translation>
    </message>
    <message>
        <source>Top-p must be a number above 0 and at most 1: “%1” is not.</source>
        <translation>Top-p 必须是大于 0 且不超过 1 的数：“%1”不是。</translation>
    </message>
    <message>
        <source>The seed must be a whole number, 0 or more: “%1” is not.</source>
        <translation>种子必须是大于等于 0 的整数：“%1”不是。</translation>
    </message>
    <message>
        <source>Nothing to take back: no token was generated after this text.</source>
        <translation>没有可以撤回的：这段文本之后还没有生成词元。</translation>
    </message>
    <message>
        <source>%1 (%2 %)</source>
        <translation>%1（%2 %）</translation>
    </message>
    <message>
        <source>Generated after the prompt (%1 tokens): %2</source>
        <translation>在提示之后生成了 %1 个词元：%2</translation>
    </message>
    <message>
        <source>Next token (N) adds %1&apos;s choice to the sentence; Generate (G) adds several; Back (Backspace) removes the last one.</source>
        <translation>“下一个词元”（N）把 %1 的选择加到句子后面；“生成”（G）一次加多个；“后退”（Backspace）去掉最后一个。</translation>
    </message>
    <message>
        <source>%1&apos;s tokenizer splits the new text into other tokens than the ones generated: the views show the text as it reads it now; the next step goes on from the generated tokens.</source>
        <translation>%1 的分词器把新文本切成了与生成时不同的词元：各视图按它现在的切分显示文本；下一步仍从生成的词元继续。</translation>
    </message>
    <message>
        <source>Generate:</source>
        <translation>生成：</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Greedy takes the likeliest token; sampling draws one from the probabilities (seeded: the same seed gives the same text, as attention-lab-cli generate --seed)</source>
        <translation>贪心取最可能的词元；采样按概率抽取一个（有种子：同一个种子得到同样的文本，与 attention-lab-cli generate --seed 相同）</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Logits are divided by it before the softmax: below 1 sharper, above 1 flatter</source>
        <translation>softmax 之前 logits 先除以它：小于 1 更尖锐，大于 1 更平缓</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Draw only among the k likeliest tokens (0: every token)</source>
        <translation>只在最可能的 k 个词元中抽取（0：所有词元）</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Draw only among the fewest likeliest tokens whose probabilities reach p</source>
        <translation>只在概率之和达到 p 的最少几个最可能的词元中抽取</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>The random numbers&apos; seed: the same seed and options give the same tokens</source>
        <translation>随机数的种子：同样的种子和选项得到同样的词元</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Add the model&apos;s next token to the sentence (N)</source>
        <translation>把模型的下一个词元加到句子后面（N）</translation>
    </message>
    <message>
        <source>Add as many tokens as the box says, one step at a time (G)</source>
        <translation>一步一个，加上框中所写数量的词元（G）</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>词元数：</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Remove the last generated token (Backspace)</source>
        <translation>去掉最后生成的词元（Backspace）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Generate N tokens</source>
        <translation>生成 N 个词元</translation>
    </message>
    <message>
        <source>Remove the last generated token</source>
        <translation>去掉最后生成的词元</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
</context>
<context>
    <name>attnlab::GenerationStepper</name>
    <message>
        <source>Type a prompt first: %1 writes on after the sentence&apos;s last token.</source>
        <translation>请先输入提示：%1 从句子的最后一个词元之后接着写。</translation>
    </message>
    <message>
        <source>Generation needs a decoder&apos;s model folder (%1) with its language-model head (File ▸ Open model…).</source>
        <translation>生成需要带语言模型头的解码器模型文件夹（%1；文件 ▸ 打开模型…）。</translation>
    </message>
    <message>
        <source>%1 ended the text with %2. Back removes it; or edit the sentence.</source>
        <translation>%1 用 %2 结束了文本。“后退”可以去掉它；也可以编辑句子。</translation>
    </message>
    <message>
        <source>No position left: %2 reads at most %1 tokens, and the text has them all.</source>
        <translation>没有剩余的位置：%2 最多读 %1 个词元，文本已经用满了。</translation>
    </message>
    <message>
        <source>The text has reached the studio&apos;s limit of %1 tokens (max_tokens).</source>
        <translation>文本已达到工作室的 %1 个词元上限（max_tokens）。</translation>
    </message>
    <message>
        <source>%1 is still writing.</source>
        <translation>%1 还在写。</translation>
    </message>
    <message>
        <source>No step can be taken.</source>
        <translation>无法再走一步。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelsFolder</name>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation>%1 是一个文件，不是文件夹</translation>
    </message>
    <message>
        <source>the folder %1 cannot be made</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>no file manager could show %1</source>
        <translation>没有文件管理器能显示 %1</translation>
    </message>
    <message>
        <source>%1 — %2, %3 × %4</source>
        <translation>%1 — %2，%3 × %4</translation>
    </message>
    <message>
        <source>1 layer</source>
        <translation>1 层</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <source>1 head</source>
        <translation>1 个头</translation>
    </message>
    <message>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <source>No GPT-2 or BERT model here yet.</source>
        <translation>这里还没有 GPT-2 或 BERT 模型。</translation>
    </message>
    <message>
        <source>into a sub-folder of the same name (gpt2, bert-base-uncased):</source>
        <translation>放进同名的子文件夹（gpt2、bert-base-uncased）：</translation>
    </message>
    <message>
        <source>GPT-2: %1</source>
        <translation>GPT-2：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>BERT: %1</source>
        <translation>BERT：%1</translation>
    </message>
    <message>
        <source>No model here yet.</source>
        <translation>这里还没有模型。</translation>
    </message>
    <message>
        <source>Llama, Mistral, Qwen: %1</source>
        <translation>Llama、Mistral、Qwen：%1</translation>
    </message>
</context>
<context>
    <name>attnlab::LessonModels</name>
    <message>
        <source>it holds a %1 model, and this lesson needs %2</source>
        <translation>里面是 %1 模型，而这一课需要 %2</translation>
    </message>
    <message>
        <source>it has %1 layers and %2 heads, and this lesson's steps need at least %3 layers and %4 heads</source>
        <translation>它有 %1 层、%2 个头，而这一课的步骤至少需要 %3 层、%4 个头</translation>
    </message>
    <message>
        <source>**The model folder %1 could not be opened:** %2</source>
        <translation>**无法打开模型文件夹 %1：**%2</translation>
    </message>
    <message>
        <source>It needs these files: %1.</source>
        <translation>它需要这些文件：%1。</translation>
    </message>
    <message>
        <source>**This lesson needs the %1 model %2**, which is not in your Models folder.</source>
        <translation>**这一课需要 %1 模型 %2**，它不在你的模型文件夹里。</translation>
    </message>
    <message>
        <source>The folder %1 there cannot be used: %2</source>
        <translation>那里的文件夹 %1 不能用：%2</translation>
    </message>
    <message>
        <source>the model folder %1 could not be opened: %2</source>
        <translation>无法打开模型文件夹 %1：%2</translation>
    </message>
    <message>
        <source>; the folder there cannot be used: %1</source>
        <translation>；那里的文件夹不能用：%1</translation>
    </message>
    <message>
        <source>Put its files (%1) into %2</source>
        <translation>把它的文件（%1）放进 %2</translation>
    </message>
    <message>
        <source>Until then the steps that need it show their text only; press *Look again* after the download.</source>
        <translation>在此之前，需要它的步骤只显示文字；下载之后请按*再找一次*。</translation>
    </message>
    <message>
        <source>**Download** fetches its files (%1) from the Hugging Face hub ([%2](%3)) into %4.</source>
        <translation>**下载**会从 Hugging Face hub（[%2](%3)）取得它的文件（%1），放进 %4。</translation>
    </message>
    <message>
        <source>the model folder %1 could not be opened: %2; the steps that need it are left out</source>
        <translation>无法打开模型文件夹 %1：%2；需要它的步骤没有放进幻灯片</translation>
    </message>
    <message>
        <source>this lesson needs the model %1, which is not in %2: the steps that need it are left out</source>
        <translation>这一课需要模型 %1，但 %2 里没有它：需要它的步骤没有放进幻灯片</translation>
    </message>
    <message>
        <source>; get it with: attention-lab-cli download %1</source>
        <translation>；获取方法：attention-lab-cli download %1</translation>
    </message>
    <message>
        <source>; put its files (%1) there</source>
        <translation>；请把它的文件（%1）放到那里</translation>
    </message>
    <message>
        <source>The model %1 could not be opened</source>
        <translation>无法打开模型 %1</translation>
    </message>
    <message>
        <source>This lesson needs the model %1</source>
        <translation>这一课需要模型 %1</translation>
    </message>
    <message>
        <source>The %1 steps of %2 that show the %3 model %4 are left out of this deck.</source>
        <translation>%2 个步骤中展示 %3 模型 %4 的 %1 个步骤没有放进这份幻灯片。</translation>
    </message>
    <message>
        <source>The folder %1 could not be opened: %2</source>
        <translation>无法打开文件夹 %1：%2</translation>
    </message>
    <message>
        <source>**Get it on the command line:**</source>
        <translation>**在命令行中获取：**</translation>
    </message>
    <message>
        <source>**or in the studio:** File ▸ Models ▸ Get models…, or *Download* in the lesson's banner.</source>
        <translation>**或者在工作室中：**“文件 ▸ 模型库 ▸ 获取模型…”，或课程横幅里的*下载*。</translation>
    </message>
    <message>
        <source>It goes into %1.</source>
        <translation>它会放进 %1。</translation>
    </message>
    <message>
        <source>Put its files (%1) into %2.</source>
        <translation>把它的文件（%1）放进 %2。</translation>
    </message>
    <message>
        <source>Then render this deck again: every step is drawn with the model.</source>
        <translation>然后重新生成这份幻灯片：每一步都会用这个模型来画。</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelBanner</name>
    <message>
        <source>The Models folder cannot be shown: %1</source>
        <translation>无法显示模型文件夹：%1</translation>
    </message>
    <message>
        <source>Open the Models folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>再找一次</translation>
    </message>
    <message>
        <source>Show the Models folder in the file manager (it is made when missing)</source>
        <translation>在文件管理器中显示模型文件夹（不存在时会先创建）</translation>
    </message>
    <message>
        <source>Look for the model in the Models folder again, after downloading it</source>
        <translation>下载之后，在模型文件夹里再找一次这个模型</translation>
    </message>
    <message>
        <source>Downloading %1: %2</source>
        <translation>正在下载 %1：%2</translation>
    </message>
    <message>
        <source>%1 could not be downloaded: %2</source>
        <translation>无法下载 %1：%2</translation>
    </message>
    <message>
        <source>%1 waits for another download to finish</source>
        <translation>%1 正在等待另一个下载完成</translation>
    </message>
    <message>
        <source>Downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Download the model from the Hugging Face hub into the Models folder, then play the lesson with it</source>
        <translation>从 Hugging Face hub 下载这个模型到模型文件夹，然后用它播放这一课</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the download; what arrived is kept, and Download goes on from there</source>
        <translation>停止下载；已下载的部分会保留，再点“下载”会接着下</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelsMenu</name>
    <message>
        <source>Mo&amp;dels</source>
        <translation>模型库(&amp;D)</translation>
    </message>
    <message>
        <source>%1 — not a GPT-2 or BERT folder</source>
        <translation>%1 — 不是 GPT-2 或 BERT 文件夹</translation>
    </message>
    <message>
        <source>Models folder: %1</source>
        <translation>模型文件夹：%1</translation>
    </message>
    <message>
        <source>&amp;Open the Models folder</source>
        <translation>打开模型文件夹(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Set Models folder…</source>
        <translation>设置模型文件夹(&amp;S)…</translation>
    </message>
    <message>
        <source>Cannot use %1 as the Models folder: it is not a folder that exists or can be made</source>
        <translation>不能把 %1 用作模型文件夹：它不是一个已有或可以创建的文件夹</translation>
    </message>
    <message>
        <source>Models folder: %1 (models found: %2)</source>
        <translation>模型文件夹：%1（找到 %2 个模型）</translation>
    </message>
    <message>
        <source>Set Models folder</source>
        <translation>设置模型文件夹</translation>
    </message>
    <message>
        <source>The Models folder cannot be shown: %1</source>
        <translation>无法显示模型文件夹：%1</translation>
    </message>
    <message>
        <source>Download %1 from %2</source>
        <translation>下载 %1：%2</translation>
    </message>
    <message>
        <source>No web browser could open %1</source>
        <translation>没有网页浏览器能打开 %1</translation>
    </message>
    <message>
        <source>Show this folder in the file manager (made first when missing)</source>
        <translation>在文件管理器中显示这个文件夹（不存在时先创建）</translation>
    </message>
    <message>
        <source>&amp;Get models…</source>
        <translation>获取模型(&amp;G)…</translation>
    </message>
    <message>
        <source>Download GPT-2 or BERT from the Hugging Face Hub or a mirror into the Models folder</source>
        <translation>从 Hugging Face Hub 或镜像下载 GPT-2 或 BERT 到模型文件夹</translation>
    </message>
    <message>
        <source>%1 — not a model folder Attention Lab opens</source>
        <translation>%1 — 不是 Attention Lab 能打开的模型文件夹</translation>
    </message>
    <message>
        <source>Download a model (%1) from the Hugging Face Hub or a mirror into the Models folder</source>
        <translation>从 Hugging Face Hub 或镜像下载模型（%1）到模型文件夹</translation>
    </message>
</context>
<context>
    <name>attnlab::SegmentBox</name>
    <message>
        <source>Sentence &amp;B:</source>
        <translation>句子 &amp;B：</translation>
    </message>
    <message>
        <source>Optional second sentence: [CLS] A [SEP] B [SEP]</source>
        <translation>可选的第二个句子：[CLS] A [SEP] B [SEP]</translation>
    </message>
    <message>
        <source>BERT reads one or two sentences. Its tokens get segment (token type) id 1; the first sentence&apos;s, up to and including the first [SEP], get 0.</source>
        <translation>BERT 读一个或两个句子。第二个句子的词元的片段（token type）编号是 1；第一个句子的词元（直到并包括第一个 [SEP]）是 0。</translation>
    </message>
</context>
<context>
    <name>attnlab::ApproximationView</name>
    <message>
        <source>Full attention: there is nothing to compare it with. Choose another attention kind in the settings to see its weights beside full attention&apos;s and how far they are from them.</source>
        <translation>完全注意力：没有可比较的对象。在设置中选择另一种注意力，即可看到它的权重与完全注意力的权重并排，以及两者相差多远。</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>A^full: full attention</source>
        <translation>A^full：完全注意力</translation>
    </message>
    <message>
        <source>Error e_i</source>
        <translation>误差 e_i</translation>
    </message>
    <message>
        <source>L1 distance (0 … 2)</source>
        <translation>L1 距离（0 … 2）</translation>
    </message>
    <message>
        <source>%1, head %2: its weights beside full attention&apos;s on the same queries, keys and mask; mean error per query %3.</source>
        <translation>%1，第 %2 个头：它的权重与完全注意力在相同查询、键和掩码上的权重并排；每个查询的平均误差为 %3。</translation>
    </message>
    <message>
        <source>Output against full attention: max |O − O^full| = %1, ‖O − O^full‖_F / ‖O^full‖_F = %2.</source>
        <translation>输出与完全注意力相比：max |O − O^full| = %1，‖O − O^full‖_F / ‖O^full‖_F = %2。</translation>
    </message>
    <message>
        <source>Linformer&apos;s weights are over its K = %1 projected rows; the error compares the token weights A·F they imply.</source>
        <translation>Linformer 的权重作用于 K = %1 个投影行；误差比较的是它们所隐含的词元权重 A·F。</translation>
    </message>
    <message>
        <source>The weights this attention kind computes</source>
        <translation>这种注意力计算出的权重</translation>
    </message>
    <message>
        <source>Full softmax attention&apos;s weights on the same queries, keys and mask</source>
        <translation>在相同查询、键和掩码上完全 softmax 注意力的权重</translation>
    </message>
    <message>
        <source>For each query: the sum of the absolute differences between its two rows of weights</source>
        <translation>每个查询：它的两行权重之差的绝对值之和</translation>
    </message>
    <message>
        <source>L1 distance</source>
        <translation>L1 距离</translation>
    </message>
</context>
<context>
    <name>attnlab::AttentionSettings</name>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>How each query&apos;s attention is computed: full softmax over every key (n² scores), a sparse, low-rank, kernel or hashed kind that computes less, or FlashAttention, full attention computed tile by tile; each shows its own stages and how far it is from full attention</source>
        <translation>每个查询的注意力如何计算：对所有键做完全 softmax（n² 个分数），计算量更少的稀疏、低秩、核函数或哈希注意力，或者逐块计算完全注意力的 FlashAttention；每一种都显示自己的阶段，以及与完全注意力相差多远</translation>
    </message>
    <message>
        <source>This model uses full attention: the other kinds are for one attention block and for seeded encoder stacks</source>
        <translation>此模型使用完全注意力：其他注意力只用于单个注意力块和随机种子权重的编码器堆栈</translation>
    </message>
    <message>
        <source>Window W</source>
        <translation>窗口 W</translation>
    </message>
    <message>
        <source>W: each query attends the keys up to W·D positions away</source>
        <translation>W：每个查询关注距离不超过 W·D 个位置的键</translation>
    </message>
    <message>
        <source>Dilation D</source>
        <translation>膨胀 D</translation>
    </message>
    <message>
        <source>D: only every D-th key within the window (1: every key)</source>
        <translation>D：窗口内每隔 D 个取一个键（1：每个键）</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局位置</translation>
    </message>
    <message>
        <source>none, or e.g. 0, 5</source>
        <translation>无，或例如 0, 5</translation>
    </message>
    <message>
        <source>Positions (counted from 0) that attend every key and that every query attends, separated by commas: 0, 5</source>
        <translation>关注所有键、也被所有查询关注的位置（从 0 开始计数），用逗号分隔：0, 5</translation>
    </message>
    <message>
        <source>Random R</source>
        <translation>随机键 R</translation>
    </message>
    <message>
        <source>R: keys per query drawn at random (with the seed) besides the window</source>
        <translation>R：除窗口外，每个查询（按随机种子）随机抽取的键数</translation>
    </message>
    <message>
        <source>Stride S</source>
        <translation>步长 S</translation>
    </message>
    <message>
        <source>S: query i attends key j when |i − j| &lt; S or i − j is a multiple of S</source>
        <translation>S：当 |i − j| &lt; S 或 i − j 是 S 的倍数时，查询 i 关注键 j</translation>
    </message>
    <message>
        <source>Rows K</source>
        <translation>投影行数 K</translation>
    </message>
    <message>
        <source>K: keys and values are projected along the sequence to K rows (seeded E and F)</source>
        <translation>K：键和值沿序列方向被投影为 K 行（随机种子生成的 E 和 F）</translation>
    </message>
    <message>
        <source>Features M</source>
        <translation>随机特征 M</translation>
    </message>
    <message>
        <source>M: random features of φ; more features come closer to softmax attention (the error falls about as 1/√M)</source>
        <translation>M：φ 的随机特征数；特征越多越接近 softmax 注意力（误差大约按 1/√M 下降）</translation>
    </message>
    <message>
        <source>Buckets B</source>
        <translation>桶数 B</translation>
    </message>
    <message>
        <source>B: hash buckets (an even number); a query attends only the keys in its own bucket</source>
        <translation>B：哈希桶数（偶数）；查询只关注同一个桶里的键</translation>
    </message>
    <message>
        <source>Chunk C</source>
        <translation>分块 C</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>C: the tokens sorted by bucket are cut into chunks of C; a query attends its own chunk and the one before (off: no chunks)</source>
        <translation>C：按桶排序后的词元被切成长度为 C 的块；查询关注自己的块和前一个块（关闭：不分块）</translation>
    </message>
    <message>
        <source>Query block B_r</source>
        <translation>查询块 B_r</translation>
    </message>
    <message>
        <source>B_r: FlashAttention takes the queries B_r at a time, a tile&apos;s rows</source>
        <translation>B_r：FlashAttention 每次取 B_r 个查询，即一块的行数</translation>
    </message>
    <message>
        <source>Key block B_c</source>
        <translation>键块 B_c</translation>
    </message>
    <message>
        <source>B_c: FlashAttention takes the keys B_c at a time, a tile&apos;s columns; after each key block every row updates its running maximum, sum and output</source>
        <translation>B_c：FlashAttention 每次取 B_c 个键，即一块的列数；每个键块之后，每一行更新它的累计最大值、累计和与输出</translation>
    </message>
    <message>
        <source>Global positions are whole numbers separated by commas, like 0, 5: “%1” is not</source>
        <translation>全局位置是用逗号分隔的整数，例如 0, 5：“%1”不是</translation>
    </message>
    <message>
        <source>These positions add a term to every query–key score, which only full attention computes: choose sinusoidal, learned, none or RoPE positions first</source>
        <translation>这种位置编码给每个查询–键分数加上一项，只有完全注意力会计算全部分数：请先选择正弦、可学习、无或 RoPE 位置编码</translation>
    </message>
</context>
<context>
    <name>attnlab::ColumnPlot</name>
    <message>
        <source>bucket %1</source>
        <translation>桶 %1</translation>
    </message>
</context>
<context>
    <name>attnlab::CostView</name>
    <message>
        <source>Give the lengths n as whole numbers separated by commas, like 256, 512, 1024</source>
        <translation>请把长度 n 写成用逗号分隔的整数，例如 256, 512, 1024</translation>
    </message>
    <message>
        <source>Tick at least one attention kind</source>
        <translation>请至少勾选一种注意力</translation>
    </message>
    <message>
        <source>Measuring… the plots follow when every kind is done.</source>
        <translation>测量中…… 所有注意力测完后显示图表。</translation>
    </message>
    <message>
        <source>Cancelling after the run in progress…</source>
        <translation>当前这次运行结束后取消……</translation>
    </message>
    <message>
        <source>O(n)</source>
        <translation>O(n)</translation>
    </message>
    <message>
        <source>O(n²)</source>
        <translation>O(n²)</translation>
    </message>
    <message>
        <source>Time of the attention alone</source>
        <translation>仅注意力计算的时间</translation>
    </message>
    <message>
        <source>n (tokens)</source>
        <translation>n（词元数）</translation>
    </message>
    <message>
        <source>median time (s)</source>
        <translation>时间中位数（秒）</translation>
    </message>
    <message>
        <source>Peak extra memory</source>
        <translation>额外内存峰值</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>Tick kinds, give n, d_model and heads, and press Run: each kind is timed on this computer, Q, K and V given. Their options are the settings panel&apos;s.</source>
        <translation>勾选注意力，填写 n、d_model 和头数，然后按“运行”：每种注意力都在这台电脑上计时（Q、K、V 已给定）。它们的参数取自设置面板。</translation>
    </message>
    <message>
        <source>Cancelled: the lengths measured so far are drawn, in the kinds&apos; colours above.</source>
        <translation>已取消：已测量的长度按上方各注意力的颜色画出。</translation>
    </message>
    <message>
        <source>Measured on this computer; each kind in its colour above.</source>
        <translation>在这台电脑上测得；每种注意力使用上方对应的颜色。</translation>
    </message>
    <message numerus="yes">
        <source>Median of %n run(s) per n; on log–log axes a cost ∝ n^p is a line of slope p.</source>
        <translation>
            <numerusform>每个 n 取 %n 次运行的中位数；在双对数坐标中，开销 ∝ n^p 是一条斜率为 p 的直线。</numerusform>
        </translation>
    </message>
    <message>
        <source>Slopes of the time: %1.</source>
        <translation>时间的斜率：%1。</translation>
    </message>
    <message>
        <source>Peak memory could not be measured on this system.</source>
        <translation>此系统无法测量内存峰值。</translation>
    </message>
    <message>
        <source>Memory is the whole program&apos;s peak above its size before each run.</source>
        <translation>内存是整个程序在每次运行中超出运行前大小的峰值。</translation>
    </message>
    <message>
        <source>Performer takes no custom mask; choose no mask, the causal or the padding mask</source>
        <translation>Performer 不接受自定义掩码；请选择无掩码、因果掩码或填充掩码</translation>
    </message>
    <message>
        <source>choose a step of an attention block</source>
        <translation>请选择一个注意力块中的步骤</translation>
    </message>
    <message>
        <source>Performer, mean error of the weights</source>
        <translation>Performer，权重的平均误差</translation>
    </message>
    <message>
        <source>Performer on this sentence: error against full attention for M random features</source>
        <translation>Performer 在这个句子上：使用 M 个随机特征时与完全注意力的误差</translation>
    </message>
    <message>
        <source>Performer&apos;s error cannot be computed here: %1</source>
        <translation>这里无法计算 Performer 的误差：%1</translation>
    </message>
    <message>
        <source>Performer on this sentence: computing…</source>
        <translation>Performer 在这个句子上：计算中……</translation>
    </message>
    <message>
        <source>∝ 1/√M</source>
        <translation>∝ 1/√M</translation>
    </message>
    <message>
        <source>M (random features)</source>
        <translation>M（随机特征数）</translation>
    </message>
    <message>
        <source>mean error (L1)</source>
        <translation>平均误差（L1）</translation>
    </message>
    <message>
        <source>Kinds:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>Measure %1 (with the settings panel&apos;s options); its colour in the plots</source>
        <translation>测量%1（使用设置面板中的参数）；这是它在图中的颜色</translation>
    </message>
    <message>
        <source>n:</source>
        <translation>n：</translation>
    </message>
    <message>
        <source>The sequence lengths to time, separated by commas</source>
        <translation>要计时的序列长度，用逗号分隔</translation>
    </message>
    <message>
        <source>d_model:</source>
        <translation>d_model：</translation>
    </message>
    <message>
        <source>The width of Q, K and V (all heads together)</source>
        <translation>Q、K、V 的宽度（所有头合计）</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头数：</translation>
    </message>
    <message>
        <source>Heads: d_model must be a multiple of them</source>
        <translation>头数：d_model 必须是它的倍数</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>次数：</translation>
    </message>
    <message>
        <source>Timed runs per n; the median is drawn</source>
        <translation>每个 n 的计时次数；图中画中位数</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Time every kind ticked, in the background</source>
        <translation>在后台为每种勾选的注意力计时</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop after the run in progress; what is measured so far is drawn</source>
        <translation>当前这次运行结束后停止；画出已测得的结果</translation>
    </message>
</context>
<context>
    <name>attnlab::LengthView</name>
    <message>
        <source>The tokens “%1” (query) and “%2” (key, %3 positions later) moved together along inputs of %4 and %5 tokens. How much the score changes with the position (max − min): %6. Flat lines mean the pair looks the same anywhere, however long the input.</source>
        <translation>词元“%1”（查询）和“%2”（键，在其后 %3 个位置）一起沿着长 %4 和 %5 个词元的输入移动。分数随位置变化的幅度（最大 − 最小）：%6。水平的线表示这一对无论在哪里、输入多长，看起来都一样。</translation>
    </message>
    <message>
        <source>n = %1 tokens</source>
        <translation>n = %1 个词元</translation>
    </message>
    <message>
        <source>score of the pair, head %1</source>
        <translation>这一对的分数，头 %1</translation>
    </message>
    <message>
        <source>position of the query (the key is %1 later)</source>
        <translation>查询的位置（键在其后 %1 个位置）</translation>
    </message>
    <message>
        <source>The length experiment runs on one attention block: choose “one attention block” as the model.</source>
        <translation>长度实验在单个注意力块上进行：请把模型选为“单个注意力块”。</translation>
    </message>
</context>
<context>
    <name>attnlab::PositionSchemeView</name>
    <message>
        <source>pair i of the head&apos;s dimensions</source>
        <translation>头的维度中的第 i 对</translation>
    </message>
    <message>
        <source>Click a segment to show it</source>
        <translation>点击某一段来显示它</translation>
    </message>
    <message>
        <source>The segment the other views show (its memory, queries, keys, scores and weights)</source>
        <translation>其他视图显示的段（它的记忆、查询、键、分数和权重）</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <source>Dark: the segment&apos;s own tokens (its queries); light: its memory</source>
        <translation>深色：本段自己的词元（它的查询）；浅色：它的记忆</translation>
    </message>
    <message>
        <source>segment %1</source>
        <translation>第 %1 段</translation>
    </message>
    <message>
        <source>Transformer-XL cuts the %1 tokens into segments of L = %2; each also attends the M = %3 rows before it (its memory, lighter in the timeline). In the weights, the blocks left of the diagonal are the memory: attention reaching back into the previous segment.</source>
        <translation>Transformer-XL 把 %1 个词元切成每段 L = %2 个；每段还关注它之前的 M = %3 行（它的记忆，时间线上颜色较浅）。在权重图里，对角线左边的块就是记忆：注意力伸回到前一段。</translation>
    </message>
    <message>
        <source>Weights of every segment at their absolute positions, head %1</source>
        <translation>各段的权重放在它们的绝对位置上，头 %1</translation>
    </message>
    <message>
        <source>Relative positions: a query scores a key by q·k plus q·aᴷ of their distance, and takes aⱽ of that distance with the key&apos;s value. Beyond K = %1 every distance shares the last row, so the map on the right is constant away from its diagonal band.</source>
        <translation>相对位置：查询给键打分用 q·k 加上它们距离对应的 q·aᴷ，并在取键的值时加上该距离的 aⱽ。超过 K = %1 的距离共用最后一行，所以右图离开对角带后就是常数。</translation>
    </message>
    <message>
        <source>clip(j − i, −%1, %1): the row each score uses</source>
        <translation>clip(j − i, −%1, %1)：每个分数用的行</translation>
    </message>
    <message>
        <source>aⱽ: one value per distance</source>
        <translation>aⱽ：每个距离一个值</translation>
    </message>
    <message>
        <source>aᴷ: one key per distance</source>
        <translation>aᴷ：每个距离一个键</translation>
    </message>
    <message>
        <source>ALiBi adds no position vector: each head subtracts its slope times the distance from every score (not divided by √d_k). The slopes halve from head to head, 2^(−8h/H).</source>
        <translation>ALiBi 不加位置向量：每个头从每个分数里减去斜率乘以距离（不除以 √d_k）。斜率逐头减半，2^(−8h/H)。</translation>
    </message>
    <message>
        <source>B, head %1 (m = %2)</source>
        <translation>B，头 %1（m = %2）</translation>
    </message>
    <message>
        <source>Each head&apos;s penalty −m_h·|i − j|: steep heads look near, flat heads far</source>
        <translation>每个头的惩罚 −m_h·|i − j|：陡的头看近处，平的头看远处</translation>
    </message>
    <message>
        <source>bias added to the score</source>
        <translation>加到分数上的偏置</translation>
    </message>
    <message>
        <source>distance |i − j|</source>
        <translation>距离 |i − j|</translation>
    </message>
    <message>
        <source>head %1: m = %2</source>
        <translation>头 %1：m = %2</translation>
    </message>
    <message>
        <source>Each clock is one pair of dimensions of one position.</source>
        <translation>每个小钟是一个位置上的一对维度。</translation>
    </message>
    <message>
        <source>The map moves the same q and k to every pair of positions: the score is constant along each diagonal m − n, because RoPE makes q_m·k_n depend on the distance only.</source>
        <translation>右图把同一个 q 和 k 放到每一对位置上：分数沿每条对角线 m − n 不变，因为 RoPE 让 q_m·k_n 只取决于距离。</translation>
    </message>
    <message>
        <source>q of “%1” at m (rows) · k of “%2” at n (columns), head %3</source>
        <translation>“%1”的 q 放在 m（行）·“%2”的 k 放在 n（列），头 %3</translation>
    </message>
    <message>
        <source>RoPE turns pair i of position pos by θ = pos / B^(2i/d_k): the first pairs fast, the last slowly</source>
        <translation>RoPE 把位置 pos 的第 i 对维度旋转 θ = pos / B^(2i/d_k)：前面的对转得快，后面的转得慢</translation>
    </message>
    <message>
        <source>pair %1</source>
        <translation>第 %1 对</translation>
    </message>
    <message>
        <source>This view shows where position enters attention for RoPE, ALiBi, relative positions and Transformer-XL. Choose one of them under Positions in the settings.</source>
        <translation>这个视图展示 RoPE、ALiBi、相对位置和 Transformer-XL 中位置在哪里进入注意力。请在设置的“位置”里选择其中之一。</translation>
    </message>
    <message>
        <source>pair i: features i, i + %1</source>
        <translation>第 i 对：特征 i 与 i + %1</translation>
    </message>
    <message>
        <source>RoPE turns features i and i + %1 of position pos together by θ = pos·ω_i: the first pairs fast, the last slowly</source>
        <translation>RoPE 把位置 pos 上的第 i 个和第 i + %1 个特征一起转过 θ = pos·ω_i：前面几对转得快，最后几对转得慢</translation>
    </message>
    <message>
        <source>This model pairs feature i of each head with feature i + %1 (its two halves, as Hugging Face&apos;s Llama code rotates them), not the neighbours 2i and 2i + 1: each clock is one such pair at one position.</source>
        <translation>这个模型把每个头的第 i 个特征和第 i + %1 个特征配成一对（前后两半，和 Hugging Face 的 Llama 代码一样转动），而不是相邻的 2i 和 2i + 1：每个小钟是一个位置上的这样一对。</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainingView</name>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>held-out</source>
        <translation>留出集</translation>
    </message>
    <message>
        <source>rate (right)</source>
        <translation>学习率（右轴）</translation>
    </message>
    <message>
        <source>exact match (%)</source>
        <translation>完全匹配 (%)</translation>
    </message>
    <message>
        <source>2 + 2 layers, d_model 64, 4 heads, d_ff 128: the size of the shipped reversal model</source>
        <translation>2 + 2 层，d_model 64，4 个头，d_ff 128：与自带的反转模型同样大小</translation>
    </message>
    <message>
        <source>1 encoder + 1 decoder layer, d_model 32, 4 heads, d_ff 64: the pattern forms in seconds</source>
        <translation>1 层编码器 + 1 层解码器，d_model 32，4 个头，d_ff 64：几秒钟就能看到模式形成</translation>
    </message>
    <message>
        <source>Standard</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation>课堂</translation>
    </message>
    <message>
        <source>Model saved to %1</source>
        <translation>模型已保存到 %1</translation>
    </message>
    <message>
        <source>Could not save the model: %1</source>
        <translation>无法保存模型：%1</translation>
    </message>
    <message>
        <source>The studio uses the trained model (kept as %1)</source>
        <translation>工作室已使用训练好的模型（保存为 %1）</translation>
    </message>
    <message>
        <source>Cannot open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>Cannot keep the model: %1</source>
        <translation>无法保存模型：%1</translation>
    </message>
    <message>
        <source>Train a model first.</source>
        <translation>请先训练一个模型。</translation>
    </message>
    <message>
        <source>This model&apos;s weights are not finite (NaN or infinity): it cannot be used or saved. Train it again with a lower learning rate.</source>
        <translation>这个模型的权重含有非有限值（NaN 或无穷大）：不能使用或保存。请用更低的学习率重新训练。</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3 — step %4</source>
        <translation>%1，第 %2 层，头 %3 — 第 %4 步</translation>
    </message>
    <message>
        <source>This model has no such layer or head.</source>
        <translation>这个模型没有这一层或这个头。</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Exact match and learning rate</source>
        <translation>完全匹配率与学习率</translation>
    </message>
    <message>
        <source>learning rate (right)</source>
        <translation>学习率（右轴）</translation>
    </message>
    <message>
        <source>held-out exact match (%)</source>
        <translation>留出集完全匹配 (%)</translation>
    </message>
    <message>
        <source>Loss (cross-entropy per token)</source>
        <translation>损失（每个词元的交叉熵）</translation>
    </message>
    <message>
        <source>held-out loss</source>
        <translation>留出集损失</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 步/秒</translation>
    </message>
    <message>
        <source>held-out exact match %1</source>
        <translation>留出集完全匹配 %1</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>损失 %1</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 / %2 步</translation>
    </message>
    <message>
        <source>Training stopped: %1</source>
        <translation>训练中止：%1</translation>
    </message>
    <message>
        <source>Training stopped: %1. Try a lower learning rate.</source>
        <translation>训练中止：%1。请试用更低的学习率。</translation>
    </message>
    <message>
        <source>Choose a task and a model, then press Start.</source>
        <translation>选择任务和模型，然后按“开始”。</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>无法开始：%1</translation>
    </message>
    <message>
        <source>Pairs from %1</source>
        <translation>样本对来自 %1</translation>
    </message>
    <message>
        <source>Cannot train on this file: %1</source>
        <translation>无法用这个文件训练：%1</translation>
    </message>
    <message>
        <source>Tab-separated pairs (*.tsv *.txt);;All files (*)</source>
        <translation>制表符分隔的样本对 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Training pairs</source>
        <translation>训练样本对</translation>
    </message>
    <message>
        <source>Press Start: the attention of a held-out pair appears here and changes as the model learns.</source>
        <translation>按“开始”：一个留出样本的注意力会显示在这里，并随着模型学习而变化。</translation>
    </message>
    <message>
        <source>The attention weights of a held-out pair the model never trains on</source>
        <translation>一个留出样本（模型从未训练过）的注意力权重</translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>探测样本：</translation>
    </message>
    <message>
        <source>Save model as…</source>
        <translation>模型另存为…</translation>
    </message>
    <message>
        <source>Open the trained model in the studio, where every stage can be stepped through</source>
        <translation>在工作室中打开训练好的模型，逐个阶段查看</translation>
    </message>
    <message>
        <source>&amp;Use this model</source>
        <translation>使用这个模型(&amp;U)</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>S&amp;tart</source>
        <translation>开始(&amp;T)</translation>
    </message>
    <message>
        <source>The peak rate: it rises over the first 100 steps (warm-up), then falls as 1/√step</source>
        <translation>峰值学习率：前 100 步线性上升（预热），之后按 1/√步数 下降</translation>
    </message>
    <message>
        <source>Learning &amp;rate</source>
        <translation>学习率(&amp;R)</translation>
    </message>
    <message>
        <source>Pairs per step</source>
        <translation>每步的样本对数</translation>
    </message>
    <message>
        <source>Batch si&amp;ze</source>
        <translation>批大小(&amp;Z)</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Encoder layers, and as many decoder layers</source>
        <translation>编码器层数（解码器层数相同）</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Standard (2 + 2 layers, d 64)</source>
        <translation>标准（2 + 2 层，d 64）</translation>
    </message>
    <message>
        <source>Classroom (1 + 1 layers, d 32)</source>
        <translation>课堂（1 + 1 层，d 32）</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>Reverse, copy or sort strings of 1 to 12 characters (a–z, 0–9 and 39 Chinese characters), or train on your own file of source&lt;TAB&gt;target lines</source>
        <translation>反转、复制或排序 1 到 12 个字符的字符串（a–z、0–9 和 39 个汉字），或用你自己的文件训练：每行“源&lt;TAB&gt;目标”</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Sort</source>
        <translation>排序</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Reverse</source>
        <translation>反转</translation>
    </message>
    <message>
        <source>Tas&amp;k</source>
        <translation>任务(&amp;K)</translation>
    </message>
    <message>
        <source>Models (*.safetensors)</source>
        <translation>模型 (*.safetensors)</translation>
    </message>
    <message>
        <source>Save model as</source>
        <translation>模型另存为</translation>
    </message>
</context>
<context>
    <name>attnlab::DecoderPanel</name>
    <message>
        <source>Step %1 / %2 (stopped)</source>
        <translation>步骤 %1 / %2（已停止）</translation>
    </message>
    <message>
        <source>Generating: %v of at most %m tokens</source>
        <translation>正在生成：%v / 最多 %m 个词元</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop generating: the tokens written so far stay</source>
        <translation>停止生成：已经写出的词元保留</translation>
    </message>
</context>
<context>
    <name>attnlab::FileActions</name>
    <message>
        <source>The settings (the window&apos;s layout, recent files, the language) are not kept: &apos;%1&apos; cannot be written.</source>
        <translation>设置（窗口布局、最近的文件、语言）不会保存：无法写入“%1”。</translation>
    </message>
</context>
<context>
    <name>attnlab::Hub</name>
    <message>
        <source>%1 is not the address of a hub: give one such as https://huggingface.co or https://hf-mirror.com</source>
        <translation>%1 不是模型中心的地址：请给出 https://huggingface.co 或 https://hf-mirror.com 这样的地址</translation>
    </message>
    <message>
        <source>an empty text</source>
        <translation>空白</translation>
    </message>
    <message>
        <source>%1 is not the name of a model on the hub: give it as owner/name, e.g. openai-community/gpt2</source>
        <translation>%1 不是模型中心上的模型名称：请写成 所有者/名称，例如 openai-community/gpt2</translation>
    </message>
    <message>
        <source>%1 is not a revision: give a branch, a tag or a commit, e.g. main</source>
        <translation>%1 不是一个版本：请给出分支、标签或提交，例如 main</translation>
    </message>
    <message>
        <source>the server sent the download elsewhere, to %1, which is not a web address</source>
        <translation>服务器把下载转到了别处（%1），那不是网址</translation>
    </message>
    <message>
        <source>the server sent the download from a secure address (HTTPS) to an insecure one (%1); Attention Lab does not follow it</source>
        <translation>服务器把下载从安全地址（HTTPS）转到了不安全的地址（%1）；Attention Lab 不会跟过去</translation>
    </message>
    <message>
        <source>the server's list of files is not the hub's: %1</source>
        <translation>服务器给出的文件列表不是模型中心的格式：%1</translation>
    </message>
    <message>
        <source>it is not a JSON object</source>
        <translation>它不是 JSON 对象</translation>
    </message>
    <message>
        <source>it has no “siblings”</source>
        <translation>其中没有“siblings”</translation>
    </message>
    <message>
        <source>a file has no name</source>
        <translation>有一个文件没有名称</translation>
    </message>
    <message>
        <source>%1 has no config.json: it is not a model Attention Lab can open (GPT-2 or BERT in the Transformers format)</source>
        <translation>%1 没有 config.json：它不是 Attention Lab 能打开的模型（Transformers 格式的 GPT-2 或 BERT）</translation>
    </message>
    <message>
        <source>%1's config.json names no model_type: Attention Lab opens models of type %2</source>
        <translation>%1 的 config.json 没有写 model_type：Attention Lab 能打开的模型类型是 %2</translation>
    </message>
    <message>
        <source>%1 is a model of type “%2”, which Attention Lab cannot open: it opens models of type %3</source>
        <translation>%1 是“%2”类型的模型，Attention Lab 打不开：它能打开的模型类型是 %3</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <source>%1 has model.safetensors.index.json but none of the shards it points to</source>
        <translation>%1 有 model.safetensors.index.json，却没有它所指的分片文件</translation>
    </message>
    <message>
        <source>Attention Lab cannot open %1: %2</source>
        <translation>Attention Lab 打不开 %1：%2</translation>
    </message>
    <message>
        <source>%1 has its weights only as pytorch_model.bin; Attention Lab reads model.safetensors (convert it with scripts/convert_to_safetensors.py, or pick a revision that has model.safetensors)</source>
        <translation>%1 的权重只有 pytorch_model.bin；Attention Lab 读取 model.safetensors（可以用 scripts/convert_to_safetensors.py 转换，或者选一个有 model.safetensors 的版本）</translation>
    </message>
    <message>
        <source>%1 has no model.safetensors: Attention Lab has no weights to read</source>
        <translation>%1 没有 model.safetensors：Attention Lab 没有权重可读</translation>
    </message>
    <message>
        <source>%1 has no %2, which the tokenizer of a %3 model needs</source>
        <translation>%1 没有 %2，而 %3 模型的分词器需要它</translation>
    </message>
    <message numerus="yes">
        <source>%1 did not answer for %n second(s) (a slow or lost connection?)</source>
        <translation>
            <numerusform>%1 已经 %n 秒没有回应（网络太慢或已断开？）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 sent another part of %2 than the one asked for</source>
        <translation>%1 发来的 %2 不是所请求的那一段</translation>
    </message>
    <message>
        <source>%1 sent more for %2 than Attention Lab reads (%3 bytes)</source>
        <translation>%1 为 %2 发来的内容超过了 Attention Lab 读取的上限（%3 字节）</translation>
    </message>
    <message>
        <source>%1 redirected %2 more than %3 times</source>
        <translation>%1 对 %2 的重定向超过了 %3 次</translation>
    </message>
    <message>
        <source>the connection to %1 ended before the end of %2</source>
        <translation>与 %1 的连接在 %2 传完之前就断了</translation>
    </message>
    <message>
        <source>%1 refused the connection: is the address right and the server running?</source>
        <translation>%1 拒绝了连接：地址对吗？服务器在运行吗？</translation>
    </message>
    <message>
        <source>the name %1 cannot be resolved: no network connection, or a wrong address</source>
        <translation>无法解析域名 %1：没有网络连接，或者地址有误</translation>
    </message>
    <message>
        <source>%1 did not answer in time (a slow or lost connection?)</source>
        <translation>%1 没有及时回应（网络太慢或已断开？）</translation>
    </message>
    <message>
        <source>%1 closed the connection</source>
        <translation>%1 关闭了连接</translation>
    </message>
    <message>
        <source>the secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <source>%1 redirected from HTTPS to plain HTTP; Attention Lab does not follow it</source>
        <translation>%1 从 HTTPS 重定向到了普通 HTTP；Attention Lab 不会跟过去</translation>
    </message>
    <message>
        <source>the network proxy did not let the download through: %1</source>
        <translation>网络代理没有放行这次下载：%1</translation>
    </message>
    <message>
        <source>cannot reach %1: %2 (no network connection?)</source>
        <translation>无法连接 %1：%2（没有网络连接？）</translation>
    </message>
    <message>
        <source>%1 refused the access token for %2 (HTTP %3): accept the model's licence on the hub with the token's account, and check the token</source>
        <translation>%1 拒绝了访问 %2 的令牌（HTTP %3）：请用令牌所属的账号在模型中心上接受该模型的许可协议，并检查令牌</translation>
    </message>
    <message>
        <source>%1 is gated or private (HTTP %2): accept its licence on the hub and give an access token (HF_TOKEN, or the token field of File ▸ Models ▸ Get models…)</source>
        <translation>%1 是受限或私有模型（HTTP %2）：请在模型中心上接受它的许可协议，并提供访问令牌（HF_TOKEN，或“文件 ▸ 模型库 ▸ 获取模型…”里的令牌一栏）</translation>
    </message>
    <message>
        <source>%1 has no %2 (HTTP 404)</source>
        <translation>%1 上没有 %2（HTTP 404）</translation>
    </message>
    <message>
        <source>%1 has had too many requests (HTTP 429): wait a while and try again</source>
        <translation>%1 收到的请求太多（HTTP 429）：请稍等片刻再试</translation>
    </message>
    <message>
        <source>%1 had an error of its own (HTTP %2) with %3: try again later</source>
        <translation>%1 在处理 %3 时自身出错（HTTP %2）：请稍后再试</translation>
    </message>
    <message>
        <source>%1 answered HTTP %2 for %3</source>
        <translation>%1 对 %3 的回应是 HTTP %2</translation>
    </message>
    <message>
        <source>the disk is full: %1 cannot be written</source>
        <translation>磁盘已满：无法写入 %1</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>the list of files of %1</source>
        <translation>%1 的文件列表</translation>
    </message>
    <message>
        <source>cancelled: what arrived is kept, and the next download of %1 goes on from there</source>
        <translation>已取消：已下载的部分会保留，下次下载 %1 时从那里接着下</translation>
    </message>
    <message>
        <source>there is no model %1 with the revision %2 on %3 (HTTP 404): check its name and revision</source>
        <translation>%3 上没有版本为 %2 的模型 %1（HTTP 404）：请检查名称和版本</translation>
    </message>
    <message>
        <source>config.json has %1 bytes, and the list of files says %2</source>
        <translation>config.json 有 %1 字节，而文件列表写的是 %2</translation>
    </message>
    <message>
        <source>%1 is already there and is not a complete download of %2: move it away or remove it, then download again</source>
        <translation>%1 已经存在，但不是 %2 的完整下载：请把它移走或删除，然后重新下载</translation>
    </message>
    <message>
        <source>the folder %1 cannot be made</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>%1 is being downloaded already, by another window or command</source>
        <translation>另一个窗口或命令已经在下载 %1</translation>
    </message>
    <message>
        <source>not enough room on the disk of %1: %2 needs %3 more, and %4 are free</source>
        <translation>%1 所在的磁盘空间不够：%2 还需要 %3，而只剩 %4</translation>
    </message>
    <message>
        <source>%1 changed on the hub while it was being downloaded: try again</source>
        <translation>下载期间 %1 在模型中心上被更改了：请再试一次</translation>
    </message>
    <message>
        <source>the server sent more of %1 than its size, %2 bytes</source>
        <translation>服务器发来的 %1 超过了它的大小（%2 字节）</translation>
    </message>
    <message>
        <source>the disk is full: %1 cannot be written further</source>
        <translation>磁盘已满：%1 无法继续写入</translation>
    </message>
    <message>
        <source>%1 arrived twice with other bytes than the hub announced (SHA-256 %2, expected %3); it was removed: try again later, or from another mirror</source>
        <translation>%1 两次下载的内容都与模型中心公布的不符（SHA-256 为 %2，应为 %3）；已删除：请稍后再试，或换一个镜像</translation>
    </message>
    <message>
        <source>%1 arrived twice with %2 bytes instead of %3; it was removed: try again later, or from another mirror</source>
        <translation>%1 两次下载都是 %2 字节，而不是 %3 字节；已删除：请稍后再试，或换一个镜像</translation>
    </message>
    <message>
        <source>%1 cannot be renamed to %2</source>
        <translation>无法把 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>%1 cannot be moved to %2</source>
        <translation>无法把 %1 移到 %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>还剩约 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <translation>还剩约 %1 分钟</translation>
    </message>
    <message>
        <source>about %1 h left</source>
        <translation>还剩约 %1 小时</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 (%2 of %3): %4</source>
        <translation>%1（第 %2 个，共 %3 个）：%4</translation>
    </message>
    <message>
        <source>%1 has no config.json: it is not a model Attention Lab can open (of type %2, in the Transformers format)</source>
        <translation>%1 没有 config.json：它不是 Attention Lab 能打开的模型（Transformers 格式、类型为 %2）</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelCatalogue</name>
    <message>
        <source>GPT-2 small (12 layers × 12 heads): a decoder that writes on; causal attention, next-token predictions, generation</source>
        <translation>GPT-2 small（12 层 × 12 个头）：接着往下写的解码器；因果注意力、下一个词元的预测、生成</translation>
    </message>
    <message>
        <source>BERT-base, English (12 layers × 12 heads): an encoder; [CLS] and [SEP], fill in a [MASK], what real heads attend to</source>
        <translation>BERT-base 英文版（12 层 × 12 个头）：编码器；[CLS] 和 [SEP]、填补 [MASK]、真实的注意力头在看什么</translation>
    </message>
    <message>
        <source>BERT-base, Chinese (12 layers × 12 heads): the same encoder on Chinese sentences, one token per character</source>
        <translation>BERT-base 中文版（12 层 × 12 个头）：同样的编码器，用于中文句子，每个字一个词元</translation>
    </message>
    <message>
        <source>DistilGPT2 (6 layers × 12 heads): a smaller GPT-2, for slower computers</source>
        <translation>DistilGPT2（6 层 × 12 个头）：更小的 GPT-2，适合较慢的电脑</translation>
    </message>
    <message>
        <source>SmolLM2-135M (30 layers × 9 heads sharing 3 key/value heads): a small modern decoder; RMSNorm, SwiGLU, RoPE, grouped-query attention</source>
        <translation>SmolLM2-135M（30 层 × 9 个头，共用 3 个键/值头）：一个小型的现代解码器；RMSNorm、SwiGLU、RoPE、分组查询注意力</translation>
    </message>
    <message>
        <source>Qwen2.5-0.5B (24 layers × 14 heads sharing 2 key/value heads): a modern decoder that reads Chinese well; its attention on Chinese sentences means something</source>
        <translation>Qwen2.5-0.5B（24 层 × 14 个头，共用 2 个键/值头）：一个读得懂中文的现代解码器，它在中文句子上的注意力有实际意义</translation>
    </message>
    <message>
        <source>SmolLM2-360M (32 layers × 15 heads sharing 5 key/value heads): SmolLM2-135M&apos;s design, wider and deeper</source>
        <translation>SmolLM2-360M（32 层 × 15 个头，共用 5 个键/值头）：与 SmolLM2-135M 同样的设计，更宽也更深</translation>
    </message>
    <message>
        <source>Qwen3-0.6B (28 layers × 16 heads sharing 8 key/value heads): Qwen&apos;s next decoder, with an RMSNorm on every query and key head</source>
        <translation>Qwen3-0.6B（28 层 × 16 个头，共用 8 个键/值头）：Qwen 的新一代解码器，每个查询头和键头上各有一个 RMSNorm</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelDownloads</name>
    <message>
        <source>cancelled before it started</source>
        <translation>开始之前就已取消</translation>
    </message>
</context>
<context>
    <name>attnlab::GetModelsDialog</name>
    <message>
        <source>Get models</source>
        <translation>获取模型</translation>
    </message>
    <message>
        <source>A real model shows what trained attention heads do. Attention Lab fetches only the files it reads, checks each against the hub's checksum and puts the model in your Models folder, %1. A download that stops goes on from where it stopped the next time.</source>
        <translation>真实的模型能展示训练过的注意力头在做什么。Attention Lab 只下载它要读取的文件，逐个用模型中心公布的校验和核对，再把模型放进你的模型文件夹 %1。下载中断后，下次会从中断的地方接着下。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Good for</source>
        <translation>适合</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>In your Models folder</source>
        <translation>在模型文件夹里</translation>
    </message>
    <message>
        <source>Another model (owner/name):</source>
        <translation>其他模型（所有者/名称）：</translation>
    </message>
    <message>
        <source>e.g. openai-community/gpt2</source>
        <translation>例如 openai-community/gpt2</translation>
    </message>
    <message>
        <source>Revision:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <source>From (hub or mirror):</source>
        <translation>来源（模型中心或镜像）：</translation>
    </message>
    <message>
        <source>Access token:</source>
        <translation>访问令牌：</translation>
    </message>
    <message>
        <source>&amp;Download</source>
        <translation>下载(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Cancel download</source>
        <translation>取消下载(&amp;C)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Downloads go on after the dialog is closed</source>
        <translation>关闭对话框后下载会继续</translation>
    </message>
    <message>
        <source>HF_ENDPOINT is set in the environment: models come from %1</source>
        <translation>环境变量 HF_ENDPOINT 已设置：模型从 %1 下载</translation>
    </message>
    <message>
        <source>https://huggingface.co, or a mirror with the same API (such as https://hf-mirror.com)</source>
        <translation>https://huggingface.co，或提供相同接口的镜像（例如 https://hf-mirror.com）</translation>
    </message>
    <message>
        <source>from HF_TOKEN</source>
        <translation>来自 HF_TOKEN</translation>
    </message>
    <message>
        <source>only for gated models (optional; kept for your user)</source>
        <translation>仅受限模型需要（可选；为你的用户保存）</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <source>Another model…</source>
        <translation>其他模型…</translation>
    </message>
    <message>
        <source>any GPT-2 or BERT on the hub: type its owner/name below</source>
        <translation>模型中心上的任何 GPT-2 或 BERT：在下面输入它的 所有者/名称</translation>
    </message>
    <message>
        <source>✔ yes</source>
        <translation>✔ 在</translation>
    </message>
    <message>
        <source>downloading…</source>
        <translation>正在下载…</translation>
    </message>
    <message>
        <source>waiting…</source>
        <translation>等待中…</translation>
    </message>
    <message>
        <source>%1 so far; Download goes on</source>
        <translation>已下载 %1；点“下载”接着下</translation>
    </message>
    <message>
        <source>Downloading %1 into %2…</source>
        <translation>正在下载 %1 到 %2…</translation>
    </message>
    <message>
        <source>%1: reading the list of files and config.json…</source>
        <translation>%1：正在读取文件列表和 config.json…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 could not be downloaded: %2</source>
        <translation>无法下载 %1：%2</translation>
    </message>
    <message>
        <source>%1 is in your Models folder already (%2).</source>
        <translation>%1 已经在你的模型文件夹里了（%2）。</translation>
    </message>
    <message>
        <source>%1 is in your Models folder now (%2): File ▸ Models opens it, and the lessons that need it play.</source>
        <translation>%1 现在在你的模型文件夹里了（%2）：可以从“文件 ▸ 模型库”打开它，需要它的课程也能播放了。</translation>
    </message>
    <message>
        <source>%1 (%2, %3): %4</source>
        <translation>%1（%2，%3）：%4</translation>
    </message>
    <message>
        <source>any %1 on the hub: type its owner/name below</source>
        <translation>模型中心上的任何 %1 模型：在下面输入它的 所有者/名称</translation>
    </message>
</context>
<context>
    <name>attnlab::KvCachePanel</name>
    <message>
        <source>Key/value cache: every token read keeps a key and a value for each K/V head of every layer, 2 · %1 layers · %2 K/V heads · %3 numbers · 4 bytes (float32) = %4 per token. Multi-head attention keeps them for every query head, grouped-query attention for each group of query heads, multi-query attention once for all.</source>
        <translation>键值缓存：每读入一个词元，每一层的每个 K/V 头都要保存它的一个键和一个值，每个词元 2 · %1 层 · %2 个 K/V 头 · %3 个数 · 4 字节（float32）= %4。多头注意力为每个查询头各存一份，分组查询注意力每组查询头存一份，多查询注意力所有头共用一份。</translation>
    </message>
    <message>
        <source>Multi-head</source>
        <translation>多头</translation>
    </message>
    <message>
        <source>Grouped-query</source>
        <translation>分组查询</translation>
    </message>
    <message>
        <source>Multi-query</source>
        <translation>多查询</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>K/V heads</source>
        <translation>K/V 头数</translation>
    </message>
    <message>
        <source>Per token</source>
        <translation>每个词元</translation>
    </message>
    <message>
        <source>Now (%1 tokens)</source>
        <translation>当前（%1 个词元）</translation>
    </message>
    <message>
        <source>At %1 tokens</source>
        <translation>%1 个词元时</translation>
    </message>
    <message>
        <source>(this model)</source>
        <translation>（本模型）</translation>
    </message>
</context>
</TS>
