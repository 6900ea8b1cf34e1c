# This file is part of horef-si (MIT license).
"""BenchExec tool-info module for horef-si, the bounded verifier for HORef programs.

Use it from the repository's root, where Python finds it as
`benchmarks.benchexec.horef_si` (see benchmarks/benchexec/README.md):

    PYTHONPATH=. benchexec benchmarks/benchexec/horef-si.xml --tool-directory target/release

Each run is `horef-si verify [options] [--max-depth K] PROGRAM`; K comes from the
task-definition file (`options: {max_depth: K}`). The first line of the output is the
verdict, and the exit code agrees with it (0 verified or safe, 10 bug, 5 unknown, 2 input
error, 6 solver error):

    VERIFIED, SAFE UP TO DEPTH K   -> true                (no failure within the bound)
    BUG                            -> false(unreach-call)
    UNKNOWN (reason: timeout ...)  -> TIMEOUT
    UNKNOWN (any other reason)     -> unknown
    anything else                  -> ERROR (...)
"""

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """Tool info for horef-si."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("horef-si")

    def version(self, executable):
        # `horef-si --version` prints `horef-si X.Y.Z`, then the solvers it found.
        line = self._version_from_tool(executable, line_prefix="horef-si")
        return line.strip()

    def name(self):
        return "horef-si"

    def project_url(self):
        return None

    def cmdline(self, executable, options, task, rlimits):
        task_options = task.options or {}
        depth = task_options.get("max_depth")
        if depth is not None and "--max-depth" not in options:
            options = [*options, "--max-depth", str(depth)]
        return [executable, "verify", *options, *task.input_files]

    def determine_result(self, run):
        lines = [line.strip() for line in run.output]
        verdict = next((line for line in lines if line), "")
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if verdict == "VERIFIED" or verdict.startswith("SAFE UP TO DEPTH"):
            return result.RESULT_TRUE_PROP
        if verdict == "BUG":
            return result.RESULT_FALSE_REACH
        if verdict == "UNKNOWN":
            reason = next((line for line in lines if line.startswith("reason:")), "")
            if "timeout" in reason:
                return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN
        code = run.exit_code.value
        if code == 2:
            return "ERROR (input)"
        if code == 6:
            return "ERROR (solver)"
        return f"ERROR ({code})"

    def get_value_from_output(self, output, identifier):
        # `stats: 122 ms, 3 solver calls, ...`: the number before `identifier`.
        for line in output:
            line = line.strip()
            if line.startswith("stats:"):
                for part in line[len("stats:") :].split(","):
                    words = part.split()
                    if len(words) >= 2 and " ".join(words[1:]) == identifier:
                        return words[0]
        return None
