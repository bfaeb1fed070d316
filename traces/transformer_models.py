"""BERT-base and GPT-2 small written with plain torch.nn modules (nothing is downloaded).

Used by traces/profile_model.py (`measure --model bert_base` / `--model gpt2_small`). The
architectures follow the published configurations exactly, so that the parameter counts equal
the published ones:

* BERT-base (Devlin et al. 2019; uncased vocabulary of 30,522 WordPieces, 512 positions,
  2 segment types, 12 layers, hidden 768, 12 heads, feed-forward 3072, post-LayerNorm, GELU)
  with its two pre-training heads: masked-LM (dense + GELU + LayerNorm, then a decoder whose
  weight is TIED to the word embeddings and which has its own bias) and next-sentence
  prediction (on the tanh pooler). Encoder + pooler: 109,482,240 parameters; with the heads:
  110,106,428 (the count of the reference BertForPreTraining bert-base-uncased).
* GPT-2 small (Radford et al. 2019; vocabulary 50,257, 1,024 positions, 12 layers, hidden 768,
  12 heads, pre-LayerNorm, final LayerNorm, GELU): 124,439,808 parameters, the language-model
  head being TIED to the token embedding (no bias).

Tied weights: the tied tensor is ONE parameter. It is owned (and counted, and sent) by the
embedding module, which is the first module holding it; the output projection that reuses it is
a module with no parameter of its own, so it is not a layer of the profile: its forward time goes
to the layer executing before it (the last LayerNorm / MLM transform), like every parameter-free
module, and autograd delivers the tied tensor's gradient once, summed over both uses, when the
embedding's backward has run (that is when the tensor can be sent).
"""

import math

import torch
from torch import nn
from torch.nn import functional as F

BERT_BASE = dict(vocab=30522, positions=512, types=2, layers=12, hidden=768, heads=12, ffn=3072)
GPT2_SMALL = dict(vocab=50257, positions=1024, layers=12, hidden=768, heads=12, ffn=3072)

# Published totals (trainable parameters).
BERT_BASE_ENCODER_PARAMS = 109482240
BERT_BASE_PRETRAINING_PARAMS = 110106428
GPT2_SMALL_PARAMS = 124439808


class SelfAttention(nn.Module):
    """Multi-head self-attention with separate Q/K/V projections (BERT) or a fused one (GPT-2)."""

    def __init__(self, hidden, heads, fused, causal):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.fused = fused
        if fused:
            self.c_attn = nn.Linear(hidden, 3 * hidden)
        else:
            self.query = nn.Linear(hidden, hidden)
            self.key = nn.Linear(hidden, hidden)
            self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, t, h = x.shape
        if self.fused:
            q, k, v = self.c_attn(x).split(h, dim=2)
        else:
            q, k, v = self.query(x), self.key(x), self.value(x)
        d = h // self.heads

        def split(z):
            return z.view(b, t, self.heads, d).transpose(1, 2)

        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)
        if self.causal:
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, h))


class Block(nn.Module):
    """Transformer layer: post-LayerNorm (BERT) or pre-LayerNorm (GPT-2)."""

    def __init__(self, hidden, heads, ffn, pre_norm):
        super().__init__()
        self.pre_norm = pre_norm
        self.attention = SelfAttention(hidden, heads, fused=pre_norm, causal=pre_norm)
        self.ln_1 = nn.LayerNorm(hidden, eps=1e-5 if pre_norm else 1e-12)
        self.fc_in = nn.Linear(hidden, ffn)
        self.fc_out = nn.Linear(ffn, hidden)
        self.ln_2 = nn.LayerNorm(hidden, eps=1e-5 if pre_norm else 1e-12)

    def mlp(self, x):
        return self.fc_out(F.gelu(self.fc_in(x)))

    def forward(self, x):
        if self.pre_norm:
            x = x + self.attention(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))
        x = self.ln_1(x + self.attention(x))
        return self.ln_2(x + self.mlp(x))


class TiedLinear(nn.Module):
    """Output projection reusing an embedding matrix (owns only its optional bias)."""

    def __init__(self, embedding, bias_size):
        super().__init__()
        # The same Parameter object: registered under both modules, counted once by
        # model.parameters(), owned by the embedding (registered first).
        self.weight = embedding.weight
        self.bias = nn.Parameter(torch.zeros(bias_size)) if bias_size else None

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class Bert(nn.Module):
    """BERT-base with the masked-LM and next-sentence heads (BertForPreTraining)."""

    def __init__(self, c=BERT_BASE):
        super().__init__()
        h = c["hidden"]
        self.word_embeddings = nn.Embedding(c["vocab"], h)
        self.position_embeddings = nn.Embedding(c["positions"], h)
        self.token_type_embeddings = nn.Embedding(c["types"], h)
        self.embeddings_ln = nn.LayerNorm(h, eps=1e-12)
        self.layers = nn.ModuleList(
            Block(h, c["heads"], c["ffn"], pre_norm=False) for _ in range(c["layers"]))
        self.pooler = nn.Linear(h, h)
        self.mlm_dense = nn.Linear(h, h)
        self.mlm_ln = nn.LayerNorm(h, eps=1e-12)
        self.mlm_decoder = TiedLinear(self.word_embeddings, c["vocab"])
        self.nsp = nn.Linear(h, 2)

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(t, device=ids.device)
        x = self.word_embeddings(ids) + self.position_embeddings(pos)
        x = x + self.token_type_embeddings(torch.zeros_like(ids))
        x = self.embeddings_ln(x)
        for layer in self.layers:
            x = layer(x)
        nsp = self.nsp(torch.tanh(self.pooler(x[:, 0])))
        mlm = self.mlm_decoder(self.mlm_ln(F.gelu(self.mlm_dense(x))))
        return mlm, nsp


class Gpt2(nn.Module):
    """GPT-2 small language model, head tied to the token embedding."""

    def __init__(self, c=GPT2_SMALL):
        super().__init__()
        h = c["hidden"]
        self.wte = nn.Embedding(c["vocab"], h)
        self.wpe = nn.Embedding(c["positions"], h)
        self.blocks = nn.ModuleList(
            Block(h, c["heads"], c["ffn"], pre_norm=True) for _ in range(c["layers"]))
        self.ln_f = nn.LayerNorm(h, eps=1e-5)
        self.lm_head = TiedLinear(self.wte, 0)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        x = self.wte(ids) + self.wpe(pos)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def bert_base():
    return Bert()


def gpt2_small():
    return Gpt2()


def token_batch(vocab, batch_size, seq_len, device):
    """Random token ids and the language-model targets (ids shifted by one)."""
    ids = torch.randint(0, vocab, (batch_size, seq_len + 1), device=device)
    return ids[:, :-1].contiguous(), ids[:, 1:].contiguous()


def bert_loss(out, targets):
    """Masked-LM loss over every position (the decoder runs on all positions, as in the
    reference BertForPreTraining) plus the next-sentence loss on a label drawn from the ids."""
    mlm, nsp = out
    loss = F.cross_entropy(mlm.reshape(-1, mlm.shape[-1]), targets.reshape(-1))
    return loss + F.cross_entropy(nsp, targets[:, 0] % 2)


def lm_loss(out, targets):
    return F.cross_entropy(out.reshape(-1, out.shape[-1]), targets.reshape(-1))
