"""A real single-node SLURM cluster on this machine, for tests and for trying the SLURM profile.

Starts ``munged``, ``slurmctld`` and ``slurmd`` from the Debian packages (``munge``, ``slurmctld``,
``slurmd``, ``slurm-client``; install them with ``.ci/install-slurm.sh``), with every state, spool,
log, pid and socket file inside one directory, on free TCP ports, with its own munge key. Nothing
under /etc or /run is touched, so it does not interfere with a site's SLURM. Clients find the
cluster through the ``SLURM_CONF`` environment variable (see :meth:`SlurmCluster.env`).

The daemons are stopped by the process ids in their pid files, never by name.

As a script::

    python tests/slurm_cluster.py start /tmp/slurm   # prints `export SLURM_CONF=...`
    python tests/slurm_cluster.py stop /tmp/slurm
"""

from __future__ import annotations

import getpass
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

TEMPLATE = Path(__file__).with_name("slurm") / "slurm.conf.in"
BINARIES = ("munged", "munge", "unmunge", "slurmctld", "slurmd", "sbatch", "squeue", "srun", "scontrol",
            "sinfo")
PARTITION = "debug"
# The snakemake SLURM plugin uses `squeue` only when MinJobAge >= 3 x its first status-check
# interval; finished jobs must stay visible to squeue until snakemake has seen them finish.
MIN_JOB_AGE = 3600


class SlurmClusterError(RuntimeError):
    """The cluster could not be started; the message names the log to read."""


def missing_binaries() -> list[str]:
    """The SLURM/munge executables that are not on PATH (empty when all are installed)."""
    search = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/sbin"
    return [b for b in BINARIES if shutil.which(b, path=search) is None]


def _which(name: str) -> str:
    search = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/sbin"
    found = shutil.which(name, path=search)
    if found is None:
        raise SlurmClusterError(f"{name} is not installed; run .ci/install-slurm.sh")
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def node_hardware() -> dict[str, int]:
    """CPU layout and memory of this machine as ``slurmd -C`` reports them."""
    out = subprocess.run([_which("slurmd"), "-C"], capture_output=True, text=True,
                         check=True).stdout
    fields = dict(re.findall(r"(\w+)=(\S+)", out.splitlines()[0]))
    return {
        "cpus": int(fields["CPUs"]),
        "boards": int(fields.get("Boards", 1)),
        "sockets": int(fields.get("SocketsPerBoard", 1)),
        "cores": int(fields.get("CoresPerSocket", 1)),
        "threads": int(fields.get("ThreadsPerCore", 1)),
        "memory": int(fields["RealMemory"]),
    }


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours still answers kill(0); reap it if it is one.
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True


class SlurmCluster:
    """munged + slurmctld + slurmd, all state under ``root``.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(self, root: str | os.PathLike, *, min_job_age: int = MIN_JOB_AGE) -> None:
        self.root = Path(root).resolve()
        self.min_job_age = min_job_age
        self.conf = self.root / "etc" / "slurm.conf"
        self.munge_socket = self.root / "munge" / "munge.socket.2"
        self.bin_dir = self.root / "bin"
        self.pid_files = {
            "slurmd": self.root / "run" / "slurmd.pid",
            "slurmctld": self.root / "run" / "slurmctld.pid",
            "munged": self.root / "munge" / "munged.pid",
        }
        self.logs = {
            "munged": self.root / "munge" / "munged.log",
            "slurmctld": self.root / "log" / "slurmctld.log",
            "slurmd": self.root / "log" / "slurmd.log",
        }

    # -- environment ---------------------------------------------------------------------------
    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: os.environ) plus ``SLURM_CONF`` pointing at this cluster."""
        env = dict(os.environ if base is None else base)
        env["SLURM_CONF"] = str(self.conf)
        env["PATH"] = f"{self.bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
        # A job's environment must not leak a surrounding allocation into the test cluster.
        for key in [k for k in env if k.startswith("SLURM_") and k != "SLURM_CONF"]:
            del env[key]
        return env

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run a SLURM client command (sinfo, squeue, ...) against this cluster."""
        return subprocess.run([_which(args[0]), *args[1:]], env=self.env(), capture_output=True,
                              text=True, check=check, timeout=60)

    # -- start ---------------------------------------------------------------------------------
    def write_config(self) -> Path:
        hw = node_hardware()
        for sub in ("etc", "state", "spool", "run", "log", "munge"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        (self.root / "munge").chmod(0o700)
        fields = {
            "CTLD_PORT": _free_port(), "SLURMD_PORT": _free_port(), "USER": getpass.getuser(),
            "MUNGE_SOCKET": self.munge_socket, "DIR": self.root, "MIN_JOB_AGE": self.min_job_age,
            "CPUS": hw["cpus"], "BOARDS": hw["boards"], "SOCKETS": hw["sockets"],
            "CORES": hw["cores"], "THREADS": hw["threads"], "MEMORY": hw["memory"],
            "PARTITION": PARTITION,
        }
        text = TEMPLATE.read_text()
        for key, value in fields.items():
            text = text.replace(f"@{key}@", str(value))
        if "@" in re.sub(r"#.*", "", text):
            raise SlurmClusterError(f"unfilled field left in {TEMPLATE}")
        self.conf.write_text(text)
        self._write_srun_wrapper()
        return self.conf

    def _write_srun_wrapper(self) -> None:
        # snakemake-executor-plugin-slurm-jobstep (0.6.1) strips every SLURM_* variable except
        # the job's identity before its nested `srun`, SLURM_CONF included; srun then looks for
        # /etc/slurm/slurm.conf or a DNS SRV record and fails. A cluster configured through the
        # default path never notices. Ours lives in a tmp dir, so jobs get an `srun` first on
        # PATH that restores SLURM_CONF and runs the real one.
        self.bin_dir.mkdir(parents=True, exist_ok=True)
        wrapper = self.bin_dir / "srun"
        real = _which("srun")
        if Path(real).resolve() == wrapper.resolve():
            raise SlurmClusterError(f"{self.bin_dir} is on PATH; remove it to find the real srun")
        wrapper.write_text(f"#!/bin/sh\nSLURM_CONF={shlex.quote(str(self.conf))} "
                           f"exec {shlex.quote(real)} \"$@\"\n")
        wrapper.chmod(0o755)

    def _start_munged(self) -> None:
        key = self.root / "munge" / "munge.key"
        if not key.exists():
            key.write_bytes(secrets.token_bytes(1024))
            key.chmod(0o400)
        subprocess.run(
            [_which("munged"), "--force", f"--key-file={key}", f"--socket={self.munge_socket}",
             f"--pid-file={self.pid_files['munged']}", f"--log-file={self.logs['munged']}",
             f"--seed-file={self.root / 'munge' / 'munged.seed'}"],
            check=True, capture_output=True, text=True, timeout=30)
        # Round trip a credential to prove the daemon answers on our socket.
        cred = subprocess.run([_which("munge"), "-n", "-S", str(self.munge_socket)],
                              capture_output=True, check=True, timeout=30).stdout
        subprocess.run([_which("unmunge"), "-S", str(self.munge_socket)], input=cred,
                       capture_output=True, check=True, timeout=30)

    def _start_daemon(self, name: str, *args: str) -> None:
        proc = subprocess.run([_which(name), "-f", str(self.conf), *args], env=self.env(),
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise SlurmClusterError(
                f"{name} failed to start (exit {proc.returncode}): {proc.stderr.strip()} "
                f"-- see {self.logs[name]}")
        self._wait_for_pid(name)

    def _wait_for_pid(self, name: str, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.pid(name)
            if pid is not None and _pid_alive(pid):
                return pid
            time.sleep(0.2)
        raise SlurmClusterError(f"{name} wrote no live pid file in {timeout}s; "
                                f"see {self.logs[name]}")

    def wait_until_idle(self, timeout: float = 60) -> None:
        """Block until the node is schedulable (state idle) or raise with the logs' tails."""
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            proc = self.run("sinfo", "--noheader", "--Node", "--format=%T", check=False)
            state = proc.stdout.strip()
            if proc.returncode == 0 and state in {"idle", "mixed", "allocated"}:
                return
            time.sleep(0.5)
        raise SlurmClusterError(f"node not idle after {timeout}s (state {state!r}); "
                                f"slurmctld log tail:\n{self.tail('slurmctld')}\n"
                                f"slurmd log tail:\n{self.tail('slurmd')}")

    def start(self) -> SlurmCluster:
        self.write_config()
        try:
            self._start_munged()
            # -c: start clean, ignore state from an earlier run in the same directory
            self._start_daemon("slurmctld", "-c")
            self._start_daemon("slurmd", "-N", "localhost")
            self.wait_until_idle()
        except BaseException:
            self.stop()
            raise
        return self

    # -- stop ----------------------------------------------------------------------------------
    def pid(self, name: str) -> int | None:
        try:
            return int(self.pid_files[name].read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def stop(self, timeout: float = 30) -> None:
        """Terminate slurmd, slurmctld and munged by the pids in their pid files."""
        for name in ("slurmd", "slurmctld", "munged"):
            pid = self.pid(name)
            if pid is None or not _pid_alive(pid):
                continue
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while _pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.2)
            if _pid_alive(pid):
                os.kill(pid, signal.SIGKILL)

    def alive(self) -> dict[str, bool]:
        return {name: (pid := self.pid(name)) is not None and _pid_alive(pid)
                for name in self.pid_files}

    def tail(self, name: str, lines: int = 30) -> str:
        try:
            return "\n".join(self.logs[name].read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def __enter__(self) -> SlurmCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in {"start", "stop"}:
        print("usage: slurm_cluster.py start|stop DIR", file=sys.stderr)
        return 2
    cluster = SlurmCluster(argv[1])
    if argv[0] == "start":
        cluster.start()
        print(f"export SLURM_CONF={cluster.conf}")
    else:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
