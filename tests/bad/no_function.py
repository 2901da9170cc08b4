# from tvm.script import relax as R
import tvm

