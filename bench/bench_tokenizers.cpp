// Benchmarks of the subword tokenizers (docs/tokenizers.md) with the real GPT-2 and BERT
// vocabularies: a 1000-word English paragraph and a Chinese one of about the same length, as the
// studio encodes them on every keystroke (GPT-2's merges remembered from the keystroke before:
// "warm") and the first time ("cold", a freshly loaded tokenizer); and a 1 MB paste.
// Run: ./build/bench/bench_tokenizers

#include "bench_main.h"
#include "text/bpe.h"
#include "text/wordpiece.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace {

using namespace attnlab;

const std::string kData = ATTNLAB_TOKENIZER_DATA;

std::string fileText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// 264 words on the subject; four of them make a paragraph of 1056 words.
const char* const kEnglish =
    "Attention is the part of a Transformer that lets every token look at every other token. "
    "Each token is turned into three vectors: a query, a key and a value. The query of one token is "
    "compared with the keys of all tokens, the scores are scaled by the square root of the key's "
    "width, and a softmax turns them into weights that add up to one. The output for the token is "
    "the weighted sum of the values. Several heads do this side by side with their own projections, "
    "so that one head can follow grammar while another follows meaning, and their outputs are "
    "joined and projected back to the model's width. In a decoder a causal mask hides the tokens "
    "that come later, so that the model cannot read the answer it is asked to predict. Positions "
    "are added to the embeddings before the first layer, because attention alone does not know the "
    "order of the words. GPT-2 reads text as bytes merged into about fifty thousand subwords, while "
    "BERT splits words into pieces marked with two hashes and wraps every sentence in special "
    "tokens. Teachers like to show what a trained model attends to: pronouns that find their "
    "nouns, heads that look at the previous token, heads that gather at the separator, and heads "
    "whose patterns nobody has explained yet. Students type their own sentences, change one word "
    "and watch the weights move, which makes the arithmetic concrete. The same numbers that fill "
    "the heatmaps are the ones the model multiplies, so nothing on the screen is a drawing of an "
    "idea; it is the computation itself, one stage after another, from the first embedding to the "
    "last probability of the next token. ";

// 425 characters (364 of them ideographs); four of them, 1700 characters, are about 1000 words.
const char* const kChinese =
    "注意力机制是Transformer中让每个词元都能看到其他所有词元的部分。每个词元先被变成三个向量："
    "查询、键和值。一个词元的查询与所有词元的键相比较，得分除以键宽度的平方根，再经过softmax变成"
    "加起来等于一的权重。这个词元的输出就是各个值的加权和。多个注意力头用各自的投影并排计算，"
    "有的头关注语法，有的头关注意义，它们的输出拼接起来，再投影回模型的宽度。在解码器中，因果掩码"
    "遮住后面的词元，使模型看不到它要预测的答案。位置编码在第一层之前加到词嵌入上，因为注意力本身"
    "不知道词的顺序。GPT-2把文本读成字节，再合并成大约五万个子词；BERT把词切成带两个井号的片段，"
    "并在每个句子两边加上特殊词元。老师喜欢展示训练好的模型在看什么：找到名词的代词，看前一个词元的"
    "头，聚集在分隔符上的头，还有至今没人解释清楚的头。学生输入自己的句子，改一个词，看权重怎样"
    "变化，算术就变得具体了。热力图上的数字正是模型相乘的数字，屏幕上没有一样是示意图，而是计算本身。";

std::string paragraph(const char* text)
{
    std::string out;
    for (int i = 0; i < 4; ++i)
        out += text;
    return out;
}

const BpeTokenizer& gpt2()
{
    static const BpeTokenizer tokenizer = BpeTokenizer::fromFiles(kData + "/gpt2/encoder.json", kData + "/gpt2/vocab.bpe");
    return tokenizer;
}

const WordPieceTokenizer& bert()
{
    static const WordPieceTokenizer tokenizer = WordPieceTokenizer::fromFile(kData + "/bert/vocab.txt", true);
    return tokenizer;
}

void report(benchmark::State& state, const std::string& text, std::size_t tokens)
{
    state.counters["tokens"] = static_cast<double>(tokens);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

// The studio's case: the same paragraph again, one keystroke later.
void BM_Gpt2Warm(benchmark::State& state, const char* text)
{
    const std::string p = paragraph(text);
    std::size_t tokens = gpt2().encode(p).ids.size();
    for (auto _ : state)
        benchmark::DoNotOptimize(tokens = gpt2().encode(p).ids.size());
    report(state, p, tokens);
}

// A tokenizer just loaded: every piece merged from its bytes (the loading not timed).
void BM_Gpt2Cold(benchmark::State& state, const char* text)
{
    const std::string p = paragraph(text);
    const std::string vocab = fileText(kData + "/gpt2/encoder.json");
    const std::string merges = fileText(kData + "/gpt2/vocab.bpe");
    std::size_t tokens = 0;
    std::optional<BpeTokenizer> fresh;
    for (auto _ : state) {
        state.PauseTiming();
        fresh.reset(); // the last one goes while the clock is stopped
        fresh.emplace(BpeTokenizer::fromStrings(vocab, merges));
        state.ResumeTiming();
        benchmark::DoNotOptimize(tokens = fresh->encode(p).ids.size());
    }
    report(state, p, tokens);
}

void BM_Bert(benchmark::State& state, const char* text)
{
    const std::string p = paragraph(text);
    std::size_t tokens = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(tokens = bert().encode(p).ids.size());
    report(state, p, tokens);
}

std::size_t gpt2Tokens(const std::string& text)
{
    return gpt2().encode(text).ids.size();
}

std::size_t bertTokens(const std::string& text)
{
    return bert().encode(text).ids.size();
}

// A megabyte pasted at once (the English paragraph repeated).
void BM_Megabyte(benchmark::State& state, std::size_t (*encode)(const std::string&))
{
    std::string text;
    while (text.size() < (1u << 20))
        text += kEnglish;
    std::size_t tokens = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(tokens = encode(text));
    report(state, text, tokens);
}

void BM_LoadGpt2(benchmark::State& state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(BpeTokenizer::fromFiles(kData + "/gpt2/encoder.json", kData + "/gpt2/vocab.bpe").size());
}

void BM_LoadBert(benchmark::State& state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(WordPieceTokenizer::fromFile(kData + "/bert/vocab.txt", true).size());
}

} // namespace

BENCHMARK_CAPTURE(BM_Gpt2Warm, english, kEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Gpt2Warm, chinese, kChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Gpt2Cold, english, kEnglish)->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK_CAPTURE(BM_Gpt2Cold, chinese, kChinese)->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK_CAPTURE(BM_Bert, english, kEnglish)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Bert, chinese, kChinese)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Megabyte, gpt2, &gpt2Tokens)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Megabyte, bert, &bertTokens)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadGpt2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadBert)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv)
{
    return attnlab::bench::runBenchmarks(argc, argv);
}
