"""Engram's benchmarks: retrieval quality on public conversational-memory data, latency, throughput, scale."""
