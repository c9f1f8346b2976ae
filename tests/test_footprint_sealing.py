"""The MCP SDK's request-state sealing loads `cryptography` when a value is first sealed or opened, not with the
server: a serving process never imports it, its key is derived as `cryptography` derives it, and a seal made
through the stand-ins verifies and refuses as the real one."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from engram.interfaces.mcp import sealing


def _run(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=300
    )
    return done.stdout.split()


def test_the_server_loads_without_cryptography() -> None:
    code = """
        import sys
        from engram.interfaces.mcp import server
        import mcp.server.request_state as sealing
        server.build(lambda context: None)  # the SDK's server derives its sealing key as it is made
        print("cryptography" in sys.modules, sealing.AESGCM.__module__, "cryptography.exceptions" in sys.modules)
    """
    assert _run(code) == ["False", "engram.interfaces.mcp.sealing", "False"]


def test_a_seal_verifies_and_a_tampered_one_is_refused() -> None:
    code = """
        import sys
        import engram.interfaces.http.serve
        from mcp.server.request_state import AESGCMRequestStateCodec, InvalidRequestState
        codec = AESGCMRequestStateCodec([b"k" * 32, "a second key of at least 32 bytes"])
        token = codec.seal(b"the state")
        print(codec.unseal(token) == b"the state", "cryptography" in sys.modules)
        # A middle letter: the last one's spare bits may be dropped by base64 or make the token unreadable.
        m = len(token) // 2
        for tampered in (token[:m] + ("A" if token[m] != "A" else "B") + token[m + 1 :], token[:12]):
            try:
                codec.unseal(tampered)
                print("accepted")
            except InvalidRequestState as refused:
                print("refused:" + str(refused))
    """
    assert _run(code) == ["True", "True", "refused:seal", "refused:malformed"]


def test_a_process_that_loaded_cryptography_first_keeps_it() -> None:
    code = """
        import cryptography.exceptions
        import engram.interfaces.http.serve
        import mcp.server.request_state as sealing
        print(sealing.InvalidTag is cryptography.exceptions.InvalidTag, sealing.AESGCM.__module__)
    """
    assert _run(code) == ["True", "cryptography.hazmat.bindings._rust.openssl.aead"]


def test_the_key_derivation_gives_cryptographys_bytes() -> None:
    from cryptography.hazmat.primitives.hashes import SHA256 as RealSHA256
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF as RealHKDF

    for length, salt, info, secret in [
        (32, None, b"mcp/request-state/v1/aes-256-gcm", b"k" * 32),
        (32, None, b"", bytes(range(64))),
        (80, b"a salt", b"info", b"short secret"),
        (1, b"", None, b"x" * 100),
    ]:
        ours = sealing.HKDF(algorithm=sealing.SHA256(), length=length, salt=salt, info=info).derive(secret)
        theirs = RealHKDF(algorithm=RealSHA256(), length=length, salt=salt, info=info).derive(secret)
        assert ours == theirs
