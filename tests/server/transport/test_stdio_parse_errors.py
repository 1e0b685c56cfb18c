"""Over stdio, a line the transport cannot parse gets a JSON-RPC error, not silence.

A real `lexicon-mcp` process, fed raw lines (the SDK's client cannot send broken ones).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _support.jsonrpc import INITIALIZE

from lexicon_server.stdio import INVALID_REQUEST, PARSE_ERROR


def test_unparseable_lines_are_answered(mini_data_dir: Path) -> None:
    bad = [
        ("not json", PARSE_ERROR, None),
        ('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"s":"\\ud800"}}', PARSE_ERROR, None),
        (
            '{"jsonrpc":"2.0","id":8,"method":"ping","params":{"n":' + "9" * 5000 + "}}",
            PARSE_ERROR,
            None,
        ),
        ("[" * 200 + "]" * 200, INVALID_REQUEST, None),
        ('{"jsonrpc":"2.0","id":"x","params":{}}', INVALID_REQUEST, "x"),
    ]
    lines = [json.dumps(INITIALIZE)] + [line for line, _code, _id in bad]
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "ping"}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXICON_")}
    proc = subprocess.run(
        [sys.executable, "-m", "lexicon_server.cli", "--data-dir", str(mini_data_dir)],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(answers) == len(lines)
    # The transport answers a bad line as soon as it reads it, while the SDK's session
    # answers `initialize`: under load either may be written first, so the two kinds are
    # checked apart. The bad lines' answers keep the order of the lines.
    errors = [a for a in answers if "error" in a]
    assert [(a["error"]["code"], a["id"]) for a in errors] == [(c, i) for _l, c, i in bad]
    answered = [a for a in answers if "error" not in a]
    assert answered[0]["id"] == 1 and "result" in answered[0]
    # the server kept going: the ping after the bad lines is answered
    assert answered[-1] == {"jsonrpc": "2.0", "id": 99, "result": {}}
