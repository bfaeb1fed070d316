"""A small CNN for the importer's test trace (traces/small-cnn-trace.json): four layers that
each take about a millisecond or more on a 2-thread CPU at batch 8, 3x64x64 inputs, so that
the per-layer comparison with the hook profiler (`measure`) is meaningful."""

from torch import nn


def build():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.Flatten(),
        nn.Linear(64 * 16 * 16, 256), nn.ReLU(), nn.Linear(256, 10))
