"""The ways in: command line, REST API and web UI, MCP."""

from engram.interfaces.mcp import sealing

sealing.install()  # before any interface imports the MCP SDK's server
