run tests/hostile/recursion.py --input x=build/hostile/v4.npy
