compile tests/hostile/weights_wrong_dtype.py --params build/hostile/w_dtype.npz -o build/hostile/out
