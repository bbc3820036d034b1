/* Compiled without gpuad: its body is not in the differentiated module. */
double other_scale(double x) { return 3.0 * x * x; }
