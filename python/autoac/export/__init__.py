"""A model's joint forward+backward graph as MLIR, the part below the door
(autoac.pytorch calls it; it calls nothing of the door).

    trace.py       AOT autograd's joint graph of a model or function
                   (`trace_joint`, torch 1.13's functorch or torch 2.x)
    rng.py         rng="replay": the joint graph's random ops as a captured
                   generator state and a replayable op (`make_replayable`),
                   the functions those FX nodes call, their MLIR names
    fx.py          the joint FX graph written as the contract's torch-mlir
                   generic-form MLIR (`export_graph`, `ExportedGraph`)
    torch_mlir.py  the joint graph imported by torch-mlir's own FX importer
                   (`export_joint_torch_mlir`, torch 2.x; docs/flows.md)

`autoac.pytorch.export_joint(model, inputs)` is trace + write in one call.
"""
from .fx import ExportError, ExportedGraph, export_graph
from .trace import JointTrace, module_state, trace_joint
from .torch_mlir import ImportedGraph, check_plan_names, export_joint_torch_mlir

__all__ = ["ExportError", "ExportedGraph", "export_graph", "JointTrace", "module_state",
           "trace_joint", "ImportedGraph", "check_plan_names", "export_joint_torch_mlir"]
