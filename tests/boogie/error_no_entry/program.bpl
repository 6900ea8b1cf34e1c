procedure p() { }
