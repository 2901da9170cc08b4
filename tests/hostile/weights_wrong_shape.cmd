compile tests/hostile/weights_wrong_shape.py --params build/hostile/w_shape.npz -o build/hostile/out
