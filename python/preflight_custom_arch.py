#!/usr/bin/env python3
"""Pre-flight check of MAX `--custom-architectures` modules, run once before a MAX job.

Loads each module the way MAX does (a directory: its parent appended to sys.path, its basename
imported; or IMPORT_PATH:MODULE) and reports, as one JSON object on stdout, what would fail later:
the module does not import against the installed MAX, it exposes no ARCHITECTURES list, a
PYTHONPATH entry shadows the package, a name collides with a built-in architecture, the model has
no chat template, an embeddings architecture under `max serve`. It states facts only; profile-gate
turns them into messages and fixes. It never raises: any failure is a check in the output.
"""
import argparse
import contextlib
import importlib
import json
import os
import platform
import sys
import traceback


def check(checks, check_id, status, **fields):
    entry = {"id": check_id, "status": status}
    entry.update({k: v for k, v in fields.items() if v is not None})
    checks.append(entry)
    return entry


def last_error_line(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()
    return text[-1] if text else type(exc).__name__


def parse_spec(spec):
    """(import_path, module_name) the way MAX splits a spec, or an error string."""
    if spec.count(":") > 1:
        return None, None, "Custom module spec contains too many colons"
    if ":" in spec:
        import_path, module = spec.split(":", 1)
        return os.path.abspath(import_path or "."), module, None
    path = os.path.abspath(spec.rstrip("/"))
    return os.path.dirname(path), os.path.basename(path), None


def max_status():
    try:
        import max  # noqa: F401
    except Exception as exc:  # MAX missing or broken: later checks that need it are skipped
        return {"importable": False, "error": last_error_line(exc)}
    version = None
    for dist in ("max", "modular"):
        try:
            from importlib.metadata import version as dist_version

            version = dist_version(dist)
            break
        except Exception:
            continue
    return {"importable": True, "version": version}


def builtin_architecture_names():
    """Names of the architectures MAX registers itself, or None when this MAX hides them."""
    try:
        builtin = importlib.import_module("max.pipelines.architectures")
    except Exception:
        return None
    listed = getattr(builtin, "architectures", None)
    if isinstance(listed, (list, tuple)) and listed:
        return sorted({getattr(a, "name", None) for a in listed} - {None})
    try:
        register = getattr(builtin, "register_all_models", None)
        if register:
            register()
        registry = importlib.import_module("max.pipelines.lib.registry").PIPELINE_REGISTRY
        return sorted(getattr(registry, "architectures", {}).keys())
    except Exception:
        return None


def chat_template_status(model, max_args):
    """'present', 'missing' or 'unknown' (tokenizer files not on this machine)."""
    if "--chat-template" in max_args:
        return "present", "--chat-template given in max-args"
    candidates = []
    if model and os.path.isdir(model):
        candidates.append(model)
    elif model and "/" in model:
        hub = os.path.join(os.environ.get("HF_HOME", os.path.expanduser("~/.cache/huggingface")), "hub")
        snapshots = os.path.join(os.environ.get("HF_HUB_CACHE", hub), "models--" + model.replace("/", "--"), "snapshots")
        if os.path.isdir(snapshots):
            candidates.extend(os.path.join(snapshots, d) for d in sorted(os.listdir(snapshots)))
    for folder in candidates:
        config_path = os.path.join(folder, "tokenizer_config.json")
        if not os.path.isfile(config_path):
            continue
        if any(os.path.isfile(os.path.join(folder, f)) for f in ("chat_template.jinja", "chat_template.json")):
            return "present", folder
        try:
            with open(config_path, encoding="utf-8") as handle:
                config = json.load(handle)
        except Exception as exc:
            return "unknown", "cannot read %s: %s" % (config_path, last_error_line(exc))
        return ("present" if config.get("chat_template") else "missing"), config_path
    return "unknown", "tokenizer files of %r are not on this machine" % model


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", action="append", default=[], help="a --custom-architectures entry")
    parser.add_argument("--mode", choices=["generate", "serve"], default="generate")
    parser.add_argument("--model", default="")
    parser.add_argument("--max-args", default="")
    args = parser.parse_args(argv)

    real_stdout = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # what imported modules print must not break the JSON
        report = run_checks(args)
    json.dump(report, real_stdout)
    real_stdout.write("\n")
    return 0


def run_checks(args):
    checks = []
    status = max_status()
    report = {"python": platform.python_version(), "executable": sys.executable, "max": status, "checks": checks}
    if not status["importable"]:
        check(checks, "max-not-importable", "skip", detail=status["error"])

    pythonpath = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    builtins = None
    for spec in args.spec:
        import_path, module_name, error = parse_spec(spec)
        if error:
            check(checks, "spec-form", "fail", spec=spec, detail=error)
            continue
        package_dir = os.path.join(import_path, module_name)
        if ":" not in spec and not os.path.isdir(package_dir):
            check(checks, "spec-path", "fail", spec=spec, detail="no directory %s" % package_dir)
            continue
        trapped = os.path.realpath(package_dir) in [os.path.realpath(p) for p in pythonpath]
        if trapped:
            check(checks, "pythonpath-trap", "fail", spec=spec, module=module_name, entry=package_dir)
        if not status["importable"]:
            continue

        if import_path not in sys.path:
            sys.path.append(import_path)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            kind = "module-not-found" if exc.name == module_name else "import-drift"
            check(checks, "import", "fail", spec=spec, module=module_name, kind=kind, error=last_error_line(exc))
            continue
        except Exception as exc:
            kind = "import-drift" if isinstance(exc, ImportError) else "import-error"
            check(checks, "import", "fail", spec=spec, module=module_name, kind=kind, error=last_error_line(exc))
            continue
        origin = getattr(module, "__file__", None)
        expected = {os.path.realpath(os.path.join(package_dir, "__init__.py")), os.path.realpath(package_dir + ".py")}
        if origin and os.path.realpath(origin) not in expected:
            if not trapped:
                check(checks, "shadowed", "fail", spec=spec, module=module_name, file=os.path.realpath(origin), expected=package_dir)
            continue
        check(checks, "import", "ok", spec=spec, module=module_name)

        architectures = getattr(module, "ARCHITECTURES", None)
        if not isinstance(architectures, (list, tuple)) or not architectures:
            check(checks, "architectures-list", "fail", spec=spec, module=module_name, found=type(architectures).__name__)
            continue
        names = [getattr(a, "name", None) or type(a).__name__ for a in architectures]
        check(checks, "architectures-list", "ok", spec=spec, names=names)

        if builtins is None:
            builtins = builtin_architecture_names()
        if builtins is None:
            check(checks, "name-collision", "skip", spec=spec, detail="this MAX does not list its built-in architectures")
        else:
            clashes = sorted(set(names) & set(builtins))
            check(checks, "name-collision", "warn" if clashes else "ok", spec=spec, names=clashes or None)

        embeddings = [n for a, n in zip(architectures, names) if "EMBEDDING" in str(getattr(a, "task", "")).upper()]
        if embeddings:
            check(checks, "embeddings-serve", "warn" if args.mode == "serve" else "ok", spec=spec, names=embeddings)

    template, where = chat_template_status(args.model, args.max_args)
    check(checks, "chat-template", {"present": "ok", "missing": "warn", "unknown": "skip"}[template], detail=where)
    return report


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except Exception as exc:  # the checker itself broke: say so in the same JSON shape
        json.dump({"checks": [{"id": "checker-error", "status": "skip", "detail": last_error_line(exc)}]}, sys.stdout)
        sys.stdout.write("\n")
        sys.exit(0)
